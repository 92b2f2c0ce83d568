package org.raidb.pgjdbcsuite;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.test.ControllerConfigXml;

/**
 * Starts one controller with its PostgreSQL front end over three embedded PostgreSQL backends (RAIDb-1) before
 * pgjdbc's test classes run, and points their {@code TestUtil} at it through the system properties it reads
 * (server, port, database, username, password). One cluster for the whole run: pgjdbc's classes expect one
 * long-lived server, and starting three per class would cost most of the build time this suite may take.
 *
 * <p>The controller runs in a JVM of its own, as in production: pgjdbc's date and time tests change the JVM's
 * default time zone, which would otherwise change how the controller's own pgjdbc reads the backends' values.
 *
 * <p>A launcher-level listener rather than a Jupiter extension because half of pgjdbc's classes are JUnit 4, run
 * by the vintage engine, which Jupiter extensions never see. Registered through {@code META-INF/services} for both
 * interfaces; the state is static because the launcher creates one instance per interface.
 */
public final class FrontEndForPgjdbcTests implements LauncherSessionListener, TestExecutionListener {
    static final String DATABASE = "shop";

    private static EmbeddedPostgresCluster cluster;
    private static ForkedController raidb;

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
        start();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        stop();
    }

    private static synchronized void start() {
        if (raidb != null) {
            return;
        }
        cluster = EmbeddedPostgresCluster.start(3, DATABASE);
        try {
            raidb = ForkedController.start(
                    ControllerConfigXml.forCluster(cluster, DATABASE).controllerAttribute("pgPort", 0),
                    DATABASE,
                    "512m");
        } catch (Exception e) {
            cluster.close();
            throw new IllegalStateException("the controller for pgjdbc's tests did not start", e);
        }
        System.setProperty("server", "127.0.0.1");
        System.setProperty("port", Integer.toString(raidb.pgPort()));
        System.setProperty("database", DATABASE);
        System.setProperty("username", ControllerFixture.USER);
        System.setProperty("password", ControllerFixture.PASSWORD);
        System.setProperty("sslmode", "disable");
    }

    private static synchronized void stop() {
        if (raidb != null) {
            try {
                raidb.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            raidb = null;
        }
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }
}
