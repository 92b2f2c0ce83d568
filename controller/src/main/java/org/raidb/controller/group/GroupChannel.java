package org.raidb.controller.group;

import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.SEQUENCER;
import org.jgroups.stack.ProtocolStack;
import org.raidb.controller.config.GroupConfig;

/**
 * This controller's membership of a group, over JGroups: messages to all (in the stack's total order)
 * or to one member, views as members join and leave. Members are named by their JGroups address.
 */
final class GroupChannel implements GroupSender, AutoCloseable {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(GroupChannel.class);

    /** What the protocol above hears. Called on JGroups' threads: must not block. */
    interface Listener {
        /**
         * A message from {@code from}.
         *
         * @param sequencer for a message delivered in the group's order, the member that broadcast it (the
         *     sequencer of the moment); null for a message sent to this member alone
         */
        void received(String from, GroupMessage m, String sequencer);

        void viewChanged(View view, List<String> left);
    }

    private final JChannel channel;
    private final GroupConfig config;
    /** Null when the stack has no SEQUENCER (a user's stack without total order). */
    private final SequencerTap tap;

    private final Map<String, Address> addresses = new ConcurrentHashMap<>();
    private volatile View view;
    /** The view's members by name, made once per view: the delivery thread asks for them at every write. */
    private volatile List<String> memberNames;

    private GroupChannel(JChannel channel, GroupConfig config, SequencerTap tap) {
        this.channel = channel;
        this.config = config;
        this.tap = tap;
    }

    /** Builds the channel from the configured stack; refuses a stack file that does not parse or load. */
    static GroupChannel create(GroupConfig config) throws GroupException {
        byte[] stack = GroupStack.load(config);
        try {
            JChannel channel = new JChannel(new ByteArrayInputStream(stack));
            ProtocolStack protocols = channel.getProtocolStack();
            SequencerTap tap = null;
            if (protocols.findProtocol(SEQUENCER.class) != null) {
                tap = new SequencerTap();
                tap.setProtocolStack(protocols);
                protocols.insertProtocol(tap, ProtocolStack.Position.BELOW, SEQUENCER.class);
            }
            return new GroupChannel(channel, config, tap);
        } catch (Exception e) {
            throw new GroupException(
                    "controller group " + config.name() + ": JGroups refused stack " + config.stack() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Joins the group: from here on, the listener hears messages and views. */
    void connect(Listener listener) throws GroupException {
        channel.setReceiver(new Receiver() {
            @Override
            public void receive(Message msg) {
                String from = String.valueOf(msg.getSrc());
                GroupMessage m;
                try {
                    m = GroupMessage.decode(msg.getArray(), msg.getOffset(), msg.getLength());
                } catch (Exception e) {
                    log.error(
                            "controller group {}: unreadable message from {} dropped: {}",
                            config.name(),
                            from,
                            e.toString());
                    return;
                }
                boolean ordered = msg.getDest() == null
                        && !msg.isFlagSet(Message.Flag.OOB)
                        && !msg.isFlagSet(Message.Flag.NO_TOTAL_ORDER);
                Address sequencer = ordered && tap != null ? tap.broadcaster() : null;
                listener.received(from, m, sequencer == null ? null : sequencer.toString());
            }

            @Override
            public void viewAccepted(View v) {
                View before = view;
                view = v;
                for (Address a : v.getMembers()) {
                    addresses.put(a.toString(), a);
                }
                List<String> left = before == null
                        ? List.of()
                        : View.leftMembers(before, v).stream()
                                .map(Address::toString)
                                .toList();
                left.forEach(addresses::remove);
                memberNames = names(v);
                listener.viewChanged(v, left);
            }
        });
        try {
            channel.connect(config.name());
        } catch (Exception e) {
            throw new GroupException(
                    "controller group " + config.name() + ": cannot join at " + config.bindAddress()
                            + ":" + config.bindPort() + ": " + e.getMessage()
                            + "; check that the port is free and the members' addresses are right",
                    e);
        }
    }

    Address address() {
        return channel.getAddress();
    }

    @Override
    public String self() {
        return String.valueOf(channel.getAddress());
    }

    View view() {
        View v = view;
        return v != null ? v : channel.getView();
    }

    /** The number of the current view (views of one group are numbered upwards). */
    long viewId() {
        return view().getViewId().getId();
    }

    /** The members of the current view, by name. */
    List<String> members() {
        List<String> names = memberNames;
        return names != null ? names : names(view());
    }

    private static List<String> names(View v) {
        return v.getMembers().stream().map(Address::toString).toList();
    }

    /** The port the transport listens on (bindPort 0 picks one). */
    int port() {
        Object p = channel.getProtocolStack().getTransport().getBindPort();
        return p instanceof Integer i && i != 0 ? i : physicalPort();
    }

    private int physicalPort() {
        Object pa = channel.down(new org.jgroups.Event(org.jgroups.Event.GET_PHYSICAL_ADDRESS, channel.getAddress()));
        return pa instanceof org.jgroups.stack.IpAddress ip ? ip.getPort() : 0;
    }

    @Override
    public void sendAll(GroupMessage m) throws Exception {
        channel.send(new BytesMessage(null, GroupMessage.encode(m)));
    }

    /**
     * To one member, after what this member sent it before (a catch-up's dumps: their pieces must arrive
     * in order); false when it is no longer in the view.
     */
    boolean sendInOrder(String member, GroupMessage m) {
        return send(member, m, false);
    }

    /**
     * To one member, out of band; false when it is no longer in the view. What goes this way (a write's
     * Done, a status answer) is an answer its receiver counts or files by its own key, so no order among
     * them or with the group's writes matters; out of band, JGroups hands it to its receiver at once
     * instead of queueing it behind the sender's earlier unicasts (at the coordinator, the writes the
     * sender forwards for ordering). It is still retransmitted until received (UNICAST3).
     */
    boolean sendTo(String member, GroupMessage m) {
        return send(member, m, true);
    }

    private boolean send(String member, GroupMessage m, boolean outOfBand) {
        Address a = addresses.get(member);
        if (a == null) {
            return false;
        }
        try {
            Message message = new BytesMessage(a, GroupMessage.encode(m));
            channel.send(outOfBand ? message.setFlag(Message.Flag.OOB) : message);
            return true;
        } catch (Exception e) {
            log.warn("controller group {}: cannot send to {}: {}", config.name(), member, e.toString());
            return false;
        }
    }

    @Override
    public void close() {
        channel.close();
    }
}
