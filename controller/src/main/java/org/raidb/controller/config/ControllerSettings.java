package org.raidb.controller.config;

import java.nio.file.Path;

/**
 * The {@code <controller>} element.
 *
 * @param host address to listen on (default 0.0.0.0)
 * @param port client port (default 25322; 0 picks a free port, for tests)
 * @param adminPort admin HTTP port (default 25380; 0 picks a free port)
 * @param dataDir where the controller keeps its files (recovery log, dumps), relative to the working directory
 * @param maxFrameBytes largest protocol frame accepted from a client (default 64 MiB)
 */
public record ControllerSettings(String host, int port, int adminPort, Path dataDir, int maxFrameBytes) {}
