package org.raidb.controller.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The opt-in {@code /metrics} listener without authentication ({@code <controller metricsPort>}), for a
 * Prometheus server or agent on this machine: bound to the loopback address only, whatever {@code adminHost}
 * says, and serving nothing but the metrics.
 */
public final class MetricsListener implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsListener.class);

    private final HttpServer server;
    private final ExecutorService thread;

    private MetricsListener(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /** Listens on 127.0.0.1 at {@code port} (0 picks a free one). */
    public static MetricsListener start(int port, ControllerMetrics metrics) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        // One thread: a scrape every few seconds is all this port is for.
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "raidb-metrics");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.createContext("/", exchange -> answer(exchange, metrics));
        server.start();
        MetricsListener listener = new MetricsListener(server, thread);
        log.info(
                "metrics without authentication on http://{}:{}/metrics",
                server.getAddress().getHostString(),
                listener.port());
        return listener;
    }

    private static void answer(HttpExchange exchange, ControllerMetrics metrics) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!path.equals("/metrics")) {
                send(exchange, 404, "text/plain; charset=utf-8", "only /metrics is served on this port\n");
            } else if (!exchange.getRequestMethod().equals("GET")
                    && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "use GET\n");
            } else {
                send(exchange, 200, ControllerMetrics.CONTENT_TYPE, metrics.scrape());
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
