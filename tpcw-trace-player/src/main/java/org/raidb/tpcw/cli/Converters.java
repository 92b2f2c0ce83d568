package org.raidb.tpcw.cli;

import java.time.Duration;
import java.util.Locale;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.play.Pace;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Command-line values whose error messages list what is accepted. */
final class Converters {

    private Converters() {}

    /** Turns the parser's IllegalArgumentException (whose message lists the valid names) into picocli's error. */
    abstract static class ByName<T> implements ITypeConverter<T> {
        abstract T parse(String value);

        @Override
        public T convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class MixConverter extends ByName<Mix> {
        @Override
        Mix parse(String value) {
            return Mix.parse(value);
        }
    }

    static final class PaceConverter extends ByName<Pace> {
        @Override
        Pace parse(String value) {
            return Pace.parse(value);
        }
    }

    static final class BestSellersConverter extends ByName<BestSellersVariant> {
        @Override
        BestSellersVariant parse(String value) {
            return BestSellersVariant.parse(value);
        }
    }

    /** 90s, 10m, 1h, 500ms, or a number of seconds. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            try {
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                char unit = v.charAt(v.length() - 1);
                if (Character.isDigit(unit)) {
                    return Duration.ofSeconds(Long.parseLong(v));
                }
                long n = Long.parseLong(v.substring(0, v.length() - 1));
                return switch (unit) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> throw new NumberFormatException();
                };
            } catch (RuntimeException e) {
                throw new TypeConversionException("'" + value + "' is not a duration (examples: 90s, 10m, 1h, 500ms)");
            }
        }
    }
}
