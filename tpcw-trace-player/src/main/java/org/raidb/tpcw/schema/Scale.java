package org.raidb.tpcw.schema;

/**
 * Table cardinalities of a populated TPC-W database, as the specification derives them from the
 * number of items and of emulated browsers (EBs). shopping_cart and shopping_cart_line start empty.
 */
public record Scale(int items, int ebs) {

    public static final int COUNTRIES = 92;
    public static final int CUSTOMERS_PER_EB = 2880;

    public Scale {
        if (items < 10) {
            throw new IllegalArgumentException(
                    "items must be at least 10 (the specification uses 1,000, 10,000 or 100,000), not " + items);
        }
        if (ebs < 1) {
            throw new IllegalArgumentException("emulated browsers must be at least 1, not " + ebs);
        }
    }

    public int authors() {
        return Math.max(1, items / 4);
    }

    public int customers() {
        return CUSTOMERS_PER_EB * ebs;
    }

    public int addresses() {
        return 2 * customers();
    }

    /** Orders (and their cc_xacts): 0.9 per customer. */
    public int orders() {
        return customers() * 9 / 10;
    }

    /** Rows of every table but order_line, whose count is random (1 to 5 lines per order, about 3). */
    public long fixedRows() {
        return (long) COUNTRIES + authors() + items + addresses() + customers() + 2L * orders();
    }

    /** The expected total, for the progress bar. */
    public long expectedRows() {
        return fixedRows() + 3L * orders();
    }
}
