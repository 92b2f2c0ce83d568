package org.raidb.driver;

/** One controller of the URL's list. IPv6 literals are kept without their brackets. */
public record HostAndPort(String host, int port) {
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
