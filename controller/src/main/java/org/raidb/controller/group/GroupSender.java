package org.raidb.controller.group;

/** What a part of the group protocol needs to speak to the others: its own name and the total order. */
interface GroupSender {
    /** This member's name in the group. */
    String self();

    /** To every member, in the group's total order (this one included). */
    void sendAll(GroupMessage m) throws Exception;
}
