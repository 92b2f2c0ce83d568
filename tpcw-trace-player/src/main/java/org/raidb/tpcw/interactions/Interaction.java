package org.raidb.tpcw.interactions;

import java.util.Arrays;
import java.util.Optional;

/**
 * The fourteen TPC-W web interactions. The first six only read; the other eight are the
 * specification's "order" interactions, the ones a mix's read-only percentage leaves out.
 */
public enum Interaction {
    HOME("Home", true),
    NEW_PRODUCTS("NewProducts", true),
    BEST_SELLERS("BestSellers", true),
    PRODUCT_DETAIL("ProductDetail", true),
    SEARCH_REQUEST("SearchRequest", true),
    SEARCH_RESULTS("SearchResults", true),
    SHOPPING_CART("ShoppingCart", false),
    CUSTOMER_REGISTRATION("CustomerRegistration", false),
    BUY_REQUEST("BuyRequest", false),
    BUY_CONFIRM("BuyConfirm", false),
    ORDER_INQUIRY("OrderInquiry", false),
    ORDER_DISPLAY("OrderDisplay", false),
    ADMIN_REQUEST("AdminRequest", false),
    ADMIN_CONFIRM("AdminConfirm", false);

    private final String traceName;
    private final boolean browsing;

    Interaction(String traceName, boolean browsing) {
        this.traceName = traceName;
        this.browsing = browsing;
    }

    /** The name written in traces and reports, without spaces. */
    public String traceName() {
        return traceName;
    }

    /** Whether the specification counts it among the read-only (browse) interactions. */
    public boolean isBrowsing() {
        return browsing;
    }

    public static Optional<Interaction> byTraceName(String name) {
        return Arrays.stream(values()).filter(i -> i.traceName.equals(name)).findFirst();
    }
}
