package org.raidb.controller.it.support;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.jgroups.annotations.Property;
import org.jgroups.stack.Protocol;
import org.jgroups.util.UUID;

/**
 * A JGroups protocol for tests that gives its member an address sorting first (or last) among the
 * group's: JGroups makes the first-sorting coordinator of the parts' coordinators the merged view's
 * coordinator, so a test can say which one it is. It adds nothing to messages.
 */
public class AddressOrder extends Protocol {
    @Property(description = "true: this member's address sorts before every random one; false: after")
    protected boolean first = true;

    @Override
    public void init() throws Exception {
        super.init();
        long high = first ? Long.MIN_VALUE : Long.MAX_VALUE;
        getProtocolStack()
                .getChannel()
                .addAddressGenerator(
                        () -> new UUID(high, ThreadLocalRandom.current().nextLong()));
    }

    /** The shipped tcp-loopback.xml stack with this protocol on top, written to a file a member names. */
    public static Path stack(boolean first) throws Exception {
        String shipped;
        try (var in = AddressOrder.class.getResourceAsStream("/org/raidb/controller/group/tcp-loopback.xml")) {
            shipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String ordered = shipped.replace(
                "</config>", "    <" + AddressOrder.class.getName() + " first=\"" + first + "\"/>\n</config>");
        return Files.writeString(Files.createTempFile("address-order", ".xml"), ordered);
    }
}
