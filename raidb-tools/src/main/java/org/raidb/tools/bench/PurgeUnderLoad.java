package org.raidb.tools.bench;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import org.raidb.controller.Controller;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * Issue 15's purge under load: 16 clients write (single-row UPDATEs, closed loop) for a window without purge, then
 * again while {@code purge log before CHECKPOINT} runs, the second window lasting exactly as long as the purge. In
 * both windows {@link AdminLatencyProbe} asks the admin API what {@code show backends} asks: the target judges the
 * answers during the purge, those without it show what the same load alone costs them.
 */
final class PurgeUnderLoad {
    static final int THREADS = 16;
    /** Issue 15: writes keep at least this share of their throughput while the log is purged. */
    static final double TARGET_THROUGHPUT_RATIO = 0.8;

    private final Controller controller;
    private final VirtualDatabase vdb;
    private final String checkpoint;
    private final String adminUser;
    private final String adminPassword;
    private final Duration window;
    private int deleted;
    private long purgeNanos;
    private AdminLatencyProbe.Figures adminWithout;
    private AdminLatencyProbe.Figures admin;
    /** How long the log's writer waited for its store during the purge (the journal's back-pressure). */
    private long storeWaitMillis;

    /**
     * What the two windows gave. {@code during}'s window is the purge's duration.
     *
     * @param deleted log entries the purge deleted
     * @param adminWithout the admin API's answers in the window without purge, for comparison
     * @param admin its answers during the purge: what the target judges
     */
    record Result(
            Figures without,
            Figures during,
            int deleted,
            double purgeSeconds,
            AdminLatencyProbe.Figures adminWithout,
            AdminLatencyProbe.Figures admin,
            long storeWaitMillis) {
        double throughputRatio() {
            return during.opsPerSecond() / without.opsPerSecond();
        }

        String describe(String checkpoint) {
            return String.format(
                    Locale.ROOT,
                    "Purge under load: %,d entries purged before checkpoint %s in %.2f s while %d clients wrote"
                            + " %,.0f ops/s (p50 %.2f ms), against %,.0f ops/s (p50 %.2f ms) without purge:"
                            + " **%.2f×** (target at least %.1f×). `show backends` (admin API over HTTP, every"
                            + " 50 ms) during the purge: %s (target every answer within %.0f ms); without purge: %s."
                            + " The log's writer waited %,d ms in all for its store during the purge (acknowledgements"
                            + " stop while the journal holds 20,000 operations not yet stored).",
                    deleted,
                    checkpoint,
                    purgeSeconds,
                    THREADS,
                    during.opsPerSecond(),
                    during.p50Millis(),
                    without.opsPerSecond(),
                    without.p50Millis(),
                    throughputRatio(),
                    TARGET_THROUGHPUT_RATIO,
                    admin.describe(),
                    AdminLatencyProbe.TARGET_MAX_MILLIS,
                    adminWithout.describe(),
                    storeWaitMillis);
        }
    }

    private PurgeUnderLoad(
            Controller controller,
            String virtualDatabase,
            String checkpoint,
            String adminUser,
            String adminPassword,
            Duration window) {
        this.controller = controller;
        this.window = window;
        this.vdb = controller.virtualDatabase(virtualDatabase);
        this.checkpoint = checkpoint;
        this.adminUser = adminUser;
        this.adminPassword = adminPassword;
    }

    /**
     * Runs both windows on {@code controller}'s virtual database, whose log must hold a checkpoint {@code checkpoint}
     * that no disabled backend and no dump is behind.
     */
    static Result run(
            Controller controller,
            String virtualDatabase,
            String checkpoint,
            String adminUser,
            String adminPassword,
            ClosedLoopRun.ConnectionSource clients,
            int rows,
            Duration warmup,
            Duration window)
            throws Exception {
        PurgeUnderLoad run =
                new PurgeUnderLoad(controller, virtualDatabase, checkpoint, adminUser, adminPassword, window);
        Figures without = ClosedLoopRun.runDuring(
                        clients, Workload.SINGLE_ROW_UPDATE, THREADS, rows, warmup, run::withoutPurge)
                .figures();
        Figures during = ClosedLoopRun.runDuring(clients, Workload.SINGLE_ROW_UPDATE, THREADS, rows, warmup, run::purge)
                .figures();
        return new Result(
                without, during, run.deleted, run.purgeNanos / 1e9, run.adminWithout, run.admin, run.storeWaitMillis);
    }

    /** The window without purge, the admin API polled as during the purge: both windows carry the same load. */
    private void withoutPurge() throws Exception {
        try (AdminLatencyProbe probe = probe()) {
            Thread.sleep(window.toMillis());
            adminWithout = probe.stop();
        }
    }

    /** The purge as the admin API's handler runs it, watched by the probe from its start to its end. */
    private void purge() throws Exception {
        try (AdminLatencyProbe probe = probe()) {
            long waitedBefore = vdb.writeLog().log().storeWaitMillis();
            long begin = System.nanoTime();
            deleted = vdb.recovery().purgeBefore(checkpoint);
            purgeNanos = System.nanoTime() - begin;
            storeWaitMillis = vdb.writeLog().log().storeWaitMillis() - waitedBefore;
            admin = probe.stop();
        }
    }

    private AdminLatencyProbe probe() {
        InetSocketAddress at = controller.adminAddress();
        URI base = URI.create("http://" + at.getHostString() + ":" + at.getPort());
        return AdminLatencyProbe.start(base, adminUser, adminPassword, vdb.name());
    }
}
