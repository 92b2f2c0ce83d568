package org.raidb.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on the loopback that forwards every connection to a port untouched and keeps a copy of
 * the bytes that went each way: what a network observer would read.
 */
public final class RecordingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    public RecordingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "recording-proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Whether {@code text} (UTF-8) went by in either direction. */
    public boolean carried(String text) {
        byte[] wire;
        synchronized (seen) {
            wire = seen.toByteArray();
        }
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i + needle.length <= wire.length; i++) {
            int j = 0;
            while (j < needle.length && wire[i + j] == needle[j]) {
                j++;
            }
            if (j == needle.length) {
                return true;
            }
        }
        return false;
    }

    /** Bytes seen so far, both directions. */
    public int bytesSeen() {
        synchronized (seen) {
            return seen.size();
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[16384];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                            synchronized (seen) {
                                seen.write(buffer, 0, n);
                            }
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // one side closed: so does the other, below
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "recording-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : open) {
            closeQuietly(s);
        }
    }
}
