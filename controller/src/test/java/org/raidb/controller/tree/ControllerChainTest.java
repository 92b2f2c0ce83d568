package org.raidb.controller.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The chain of controllers a HELLO carries: ancestors are learnt, and a chain holding oneself is a cycle. */
class ControllerChainTest {
    @Test
    void aClientWithoutChainIsAdmitted() throws SQLException {
        ControllerChain shop = new ControllerChain("shop");
        shop.admit(null);
        assertThat(shop.forChild()).isEqualTo(shop.self());
    }

    @Test
    void ancestorsAreToldToChildren() throws SQLException {
        ControllerChain top = new ControllerChain("top");
        ControllerChain middle = new ControllerChain("middle");
        middle.admit(top.forChild());
        assertThat(middle.forChild()).isEqualTo(middle.self() + "," + top.self());
        assertThat(top.self()).isNotEqualTo(new ControllerChain("top").self());
    }

    @Test
    void aChainHoldingThisVirtualDatabaseIsRefusedNamingTheCycle() throws SQLException {
        ControllerChain a = new ControllerChain("a");
        ControllerChain b = new ControllerChain("b");
        ControllerChain c = new ControllerChain("c");
        b.admit(a.forChild()); // a names b
        c.admit(b.forChild()); // b names c
        assertThatThrownBy(() -> a.admit(c.forChild())) // c names a: the cycle closes
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("controllers form a cycle: " + a.self() + " -> " + b.self() + " -> " + c.self()
                        + " -> " + a.self())
                .hasMessageContaining("remove the backend that closes the cycle")
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("08004");
    }
}
