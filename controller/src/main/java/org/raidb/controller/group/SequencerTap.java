package org.raidb.controller.group;

import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * A protocol just below SEQUENCER that tells the delivery thread which member broadcast the message
 * now going up: the sequencer that gave it its place in the order. SEQUENCER hands the original message
 * up (sender: its origin), so above it nothing else tells a message of the dead sequencer's order from
 * one of the new sequencer's; {@link SequencerHandover} needs that boundary, as the view that removes
 * the dead sequencer reaches each member at a different place of the new sequencer's order (after some
 * of its broadcasts on one member, before them on another). SEQUENCER delivers on the thread that
 * passes the broadcast up, so a thread-local carries the answer to the receiver.
 */
final class SequencerTap extends Protocol {
    /** Per delivery thread; set and restored around each message, so channels in one JVM can share it. */
    private static final ThreadLocal<Address> BROADCASTER = new ThreadLocal<>();

    /** The member that broadcast the message being delivered on this thread, or null. */
    Address broadcaster() {
        return BROADCASTER.get();
    }

    @Override
    public Object up(Message msg) {
        Address before = BROADCASTER.get();
        BROADCASTER.set(msg.getSrc());
        try {
            return up_prot.up(msg);
        } finally {
            BROADCASTER.set(before);
        }
    }

    @Override
    public void up(MessageBatch batch) {
        Address before = BROADCASTER.get();
        BROADCASTER.set(batch.sender()); // a batch holds one sender's messages
        try {
            up_prot.up(batch);
        } finally {
            BROADCASTER.set(before);
        }
    }
}
