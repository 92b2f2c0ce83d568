package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link TextTable}: the console's aligned output. */
class ConsoleTableTest {

    @Test
    void columnsAreAsWideAsTheirWidestCellWithoutTrailingSpaces() {
        String text = new TextTable("BACKEND", "STATE", "SERVED")
                .row("pg1", "enabled", 12345)
                .row("postgres-east", null, 7)
                .render();
        assertThat(text).isEqualTo("""
        BACKEND        STATE    SERVED
        pg1            enabled  12345
        postgres-east  -        7
        """);
    }

    @Test
    void anEmptyTableIsItsHeaderAndSaysItIsEmpty() {
        TextTable table = new TextTable("ID", "KIND");
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.render()).isEqualTo("ID  KIND\n");
    }

    @Test
    void aRowMustHaveOneCellPerColumn() {
        assertThatThrownBy(() -> new TextTable("A", "B").row("only one"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("1 cells for 2 columns");
    }
}
