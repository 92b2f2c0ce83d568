package org.raidb.controller.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.controller.session.ClientSession;
import org.raidb.controller.session.SessionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts driver connections and gives each its own session thread. Blocking I/O with a thread per
 * session keeps a request's path on one stack, which is what makes it readable and debuggable; the
 * session counts this middleware serves make that affordable.
 */
public final class ClientListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClientListener.class);

  private final ServerSocket server;
  private final SessionRegistry registry;
  private final AtomicLong sessionIds = new AtomicLong();
  private final Thread acceptor;

  public ClientListener(String host, int port, SessionRegistry registry) throws IOException {
    this.registry = registry;
    this.server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(host, port), 256);
    this.acceptor = new Thread(this::acceptLoop, "raidb-listener-" + server.getLocalPort());
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        long id = sessionIds.incrementAndGet();
        Thread t = new Thread(new ClientSession(s, registry, id), "raidb-session-" + id);
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        if (!server.isClosed()) {
          log.warn("accepting a client connection failed: {}", e.toString());
        }
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    registry.sessions().forEach(ClientSession::close);
  }
}
