package org.raidb.controller.analysis;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads SQL texts are parsed on. JSqlParser parses with a timeout by running the parse on another
 * thread, so that a pathological statement cannot hold a session forever; those threads belong to
 * whoever made this (the controller, for all its virtual databases) and end with {@link #close}.
 * Threads are made on demand and end after a minute idle.
 */
public final class ParserThreads implements AutoCloseable {
    private final ExecutorService executor;

    public ParserThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true); // a parse left running must not keep the JVM alive
            return t;
        });
    }

    public ExecutorService executor() {
        return executor;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
