package org.raidb.tpcw.populate;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Random;

/**
 * The random values TPC-W tables and interactions are made of (the specification's a-strings,
 * n-strings, subjects, dates), drawn from a seeded {@link Random} so that the same seed gives the
 * same database and the same workload.
 */
public final class TpcwRandom {

    /** The specification's 24 subjects. */
    public static final List<String> SUBJECTS = List.of(
            "ARTS",
            "BIOGRAPHIES",
            "BUSINESS",
            "CHILDREN",
            "COMPUTERS",
            "COOKING",
            "HEALTH",
            "HISTORY",
            "HOME",
            "HUMOR",
            "LITERATURE",
            "MYSTERY",
            "NON-FICTION",
            "PARENTING",
            "POLITICS",
            "REFERENCE",
            "RELIGION",
            "ROMANCE",
            "SELF-HELP",
            "SCIENCE-NATURE",
            "SCIENCE-FICTION",
            "SPORTS",
            "YOUTH",
            "TRAVEL");

    public static final List<String> BACKINGS = List.of("HARDBACK", "PAPERBACK", "USED", "AUDIO", "LIMITED-EDITION");
    public static final List<String> CARD_TYPES = List.of("VISA", "MASTERCARD", "DISCOVER", "AMEX", "DINERS");
    public static final List<String> SHIP_TYPES = List.of("AIR", "UPS", "FEDEX", "SHIP", "COURIER", "MAIL");
    public static final List<String> ORDER_STATUSES = List.of("PROCESSING", "SHIPPED", "PENDING", "DENIED");

    /**
     * Populated dates end here rather than at today's date, so that two populates on different days
     * are identical.
     */
    public static final LocalDate EPOCH = LocalDate.of(2024, 1, 1);

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String SYLLABLES[] = {"BA", "OG", "AL", "RI", "RE", "SE", "AT", "UL", "IN", "NG"};

    private final Random random;

    public TpcwRandom(long seed) {
        this.random = new Random(seed);
    }

    /** Uniform in [min, max]. */
    public int between(int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    public double uniform() {
        return random.nextDouble();
    }

    public <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** Letters and digits, length in [min, max]. */
    public String aString(int min, int max) {
        int length = between(min, max);
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars);
    }

    /** Digits, length in [min, max]. */
    public String nString(int min, int max) {
        int length = between(min, max);
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(chars);
    }

    /** Money with two decimals in [min, max]. */
    public BigDecimal money(double min, double max) {
        return BigDecimal.valueOf(min + random.nextDouble() * (max - min)).setScale(2, RoundingMode.HALF_UP);
    }

    /** A day within {@code days} before {@link #EPOCH}. */
    public LocalDate dayBefore(int days) {
        return EPOCH.minusDays(random.nextInt(days));
    }

    /** A second within {@code days} before {@link #EPOCH}. */
    public LocalDateTime timeBefore(int days) {
        return EPOCH.atStartOfDay().minusSeconds(random.nextInt(days * 86_400));
    }

    /** The specification's DigSyl: each decimal digit of {@code n} as a syllable, e.g. 31 becomes "RIOG". */
    public static String digitSyllables(long n) {
        StringBuilder s = new StringBuilder();
        for (char digit : Long.toString(n).toCharArray()) {
            s.append(SYLLABLES[digit - '0']);
        }
        return s.toString();
    }
}
