package org.raidb.balancer;

/** Resolves a read policy from its configuration spelling: a short name or a class name. */
public final class ReadPolicies {
    private ReadPolicies() {}

    public static ReadPolicy byName(String name) {
        return switch (name) {
            case "roundRobin" -> new RoundRobinReadPolicy();
            case "weightedRoundRobin" -> new WeightedRoundRobinReadPolicy();
            case "leastPending" -> new LeastPendingReadPolicy();
            default -> byClassName(name);
        };
    }

    private static ReadPolicy byClassName(String className) {
        try {
            Class<?> c = Class.forName(className);
            if (!ReadPolicy.class.isAssignableFrom(c)) {
                throw new IllegalArgumentException(
                        "read policy class " + className + " does not implement " + ReadPolicy.class.getName());
            }
            return (ReadPolicy) c.getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("unknown read policy '" + className
                    + "': use roundRobin, weightedRoundRobin, leastPending or a class implementing "
                    + ReadPolicy.class.getName());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot instantiate read policy " + className + ": " + e, e);
        }
    }
}
