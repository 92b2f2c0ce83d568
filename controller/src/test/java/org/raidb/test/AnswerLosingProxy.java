package org.raidb.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on the loopback in front of one database server, that can be told to break a
 * connection at an exact point: when the server's answer holding a command tag goes by (the server
 * did the work, the client never hears it), or when the client's request holding some text goes by
 * (the server never sees it). Either way both sockets of that connection are closed, as a crash or
 * a network cut would leave them. It can also {@linkplain #partition() partition}: stop forwarding
 * in both directions, closes included, without resetting anything, as a network that drops packets
 * would, until {@linkplain #heal() healed}. Traffic is forwarded untouched otherwise.
 */
public final class AnswerLosingProxy implements AutoCloseable {

    /** Which way the bytes that trigger the cut travel. */
    public enum Direction {
        TO_SERVER,
        TO_CLIENT
    }

    private record Cut(Direction direction, byte[] marker) {}

    private final ServerSocket listener;
    private final int targetPort;
    private final AtomicReference<Cut> armed = new AtomicReference<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile int cuts;
    private final Object partition = new Object();
    private boolean partitioned;

    public AnswerLosingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-accept-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** The next server answer holding {@code tag} (a command tag such as "INSERT 0 1") is lost with its connection. */
    public void loseAnswerHolding(String tag) {
        armed.set(new Cut(Direction.TO_CLIENT, tag.getBytes(StandardCharsets.US_ASCII)));
    }

    /** The next client request holding {@code text} never reaches the server; its connection is cut. */
    public void loseRequestHolding(String text) {
        armed.set(new Cut(Direction.TO_SERVER, text.getBytes(StandardCharsets.UTF_8)));
    }

    /** From now on nothing goes through, in either direction, and no connection is closed on the other side. */
    public void partition() {
        synchronized (partition) {
            partitioned = true;
        }
    }

    /** What was held back goes through, and forwarding resumes. */
    public void heal() {
        synchronized (partition) {
            partitioned = false;
            partition.notifyAll();
        }
    }

    private void awaitHealed() throws InterruptedException {
        synchronized (partition) {
            while (partitioned) {
                partition.wait();
            }
        }
    }

    /** How many connections were cut so far. */
    public int cuts() {
        return cuts;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                open.add(client);
                open.add(server);
                pump(client, server, Direction.TO_SERVER);
                pump(server, client, Direction.TO_CLIENT);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to, Direction direction) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[64 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) > 0) {
                            awaitHealed(); // bytes read during a partition are held, not lost
                            Cut cut = armed.get();
                            if (cut != null
                                    && cut.direction() == direction
                                    && contains(buffer, n, cut.marker())
                                    && armed.compareAndSet(cut, null)) {
                                cuts++;
                                break; // not forwarded: the try closes both ends
                            }
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the other pump closed the connection
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        try {
                            awaitHealed(); // a close does not cross a partition either
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "proxy-" + direction + "-" + targetPort);
        t.setDaemon(true);
        t.start();
    }

    private static boolean contains(byte[] buffer, int length, byte[] marker) {
        outer:
        for (int i = 0; i + marker.length <= length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (buffer[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        heal();
        listener.close();
        open.forEach(AnswerLosingProxy::closeQuietly);
    }
}
