package org.raidb.controller.session;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.raidb.controller.session.ClientErrorLog.Kind;
import org.slf4j.LoggerFactory;

class ClientErrorLogTest {
    private final AtomicLong now = new AtomicLong();
    private final ClientErrorLog errors = new ClientErrorLog(Duration.ofMinutes(1), now::get);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ClientErrorLog.class);

    @BeforeEach
    void capture() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
    }

    private List<String> lines() {
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void oneLinePerAddressAndKindPerIntervalThenTheCountOfTheOthers() throws Exception {
        InetAddress a = InetAddress.getByName("10.0.0.1");
        InetAddress b = InetAddress.getByName("10.0.0.2");
        for (int i = 0; i < 1000; i++) {
            errors.report(a, Kind.PROTOCOL_VIOLATION, "bad frame " + i);
        }
        errors.report(b, Kind.PROTOCOL_VIOLATION, "bad frame from b");
        errors.report(a, Kind.INVALID_VALUE, "bad decimal");
        assertThat(lines())
                .containsExactly(
                        "protocol violation from 10.0.0.1: bad frame 0",
                        "protocol violation from 10.0.0.2: bad frame from b",
                        "invalid value from 10.0.0.1: bad decimal");

        now.addAndGet(Duration.ofSeconds(61).toNanos());
        errors.report(a, Kind.PROTOCOL_VIOLATION, "bad frame 1000");
        assertThat(lines())
                .last()
                .isEqualTo("protocol violation from 10.0.0.1: bad frame 1000 "
                        + "(999 more like it from this address since the previous line were not logged)");
        assertThat(appender.list)
                .allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
        assertThat(appender.list.get(0).getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
        assertThat(appender.list.get(2).getLevel()).isEqualTo(ch.qos.logback.classic.Level.INFO);
    }

    @Test
    void aZeroIntervalLogsEveryError() throws Exception {
        ClientErrorLog everything = new ClientErrorLog(Duration.ZERO, now::get);
        for (int i = 0; i < 5; i++) {
            everything.report(InetAddress.getByName("10.0.0.1"), Kind.IO_ERROR, "reset " + i);
        }
        assertThat(lines()).hasSize(5);
    }
}
