package org.raidb.tpcw.interactions;

import java.sql.SQLException;

/** One TPC-W emulated browser: draws interactions from its mix and runs them on its session. */
public final class EmulatedBrowser {

    private final SqlSession db;
    private final BrowserState state;
    private final Mix mix;

    public EmulatedBrowser(SqlSession db, BrowserState state, Mix mix) {
        this.db = db;
        this.state = state;
        this.mix = mix;
    }

    /** Runs the next interaction of the mix; returns which one ran. */
    public Interaction next() throws SQLException {
        Interaction interaction = mix.next(state.random);
        run(interaction);
        return interaction;
    }

    /** Runs one interaction; a failure inside its transaction rolls the transaction back before it is thrown. */
    public void run(Interaction interaction) throws SQLException {
        db.interaction(interaction);
        try {
            switch (interaction) {
                case HOME -> BrowseInteractions.home(db, state);
                case NEW_PRODUCTS -> BrowseInteractions.newProducts(db, state);
                case BEST_SELLERS -> BrowseInteractions.bestSellers(db, state);
                case PRODUCT_DETAIL -> BrowseInteractions.productDetail(db, state);
                case SEARCH_REQUEST -> BrowseInteractions.searchRequest(db, state);
                case SEARCH_RESULTS -> BrowseInteractions.searchResults(db, state);
                case SHOPPING_CART -> OrderInteractions.shoppingCart(db, state);
                case CUSTOMER_REGISTRATION -> OrderInteractions.customerRegistration(db, state);
                case BUY_REQUEST -> OrderInteractions.buyRequest(db, state);
                case BUY_CONFIRM -> OrderInteractions.buyConfirm(db, state);
                case ORDER_INQUIRY -> OrderInteractions.orderInquiry(db, state);
                case ORDER_DISPLAY -> OrderInteractions.orderDisplay(db, state);
                case ADMIN_REQUEST -> OrderInteractions.adminRequest(db, state);
                case ADMIN_CONFIRM -> OrderInteractions.adminConfirm(db, state);
            }
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            state.cart = null; // it may have been created in the rolled-back transaction: start a new one
            throw e;
        }
    }
}
