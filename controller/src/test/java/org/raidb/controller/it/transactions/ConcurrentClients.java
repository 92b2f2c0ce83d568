package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Client threads run to their end at once; whatever any of them threw fails the test. */
final class ConcurrentClients {
    @FunctionalInterface
    interface Client {
        void run(int index) throws Exception;
    }

    private ConcurrentClients() {}

    static void run(int clients, Client client) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < clients; i++) {
            int index = i;
            threads.add(new Thread(() -> {
                try {
                    client.run(index);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failures).as("what the clients threw").isEmpty();
    }
}
