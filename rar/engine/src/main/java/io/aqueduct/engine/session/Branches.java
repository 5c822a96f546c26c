package io.aqueduct.engine.session;

import io.aqueduct.engine.queue.ReadyIndexLoader;
import io.aqueduct.engine.time.DueWork;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The XA branches of this engine's sessions, by Xid (a branch is ended through any of the engine's
 * XAResources), and the messages that in-doubt branches of an earlier JVM hold (Derby): those stay
 * out of the ready indexes and are passed by the time manager until the transaction manager commits
 * or rolls their branch back.
 */
public final class Branches {
    private final Map<XidKey, SessionTransaction> byXid = new ConcurrentHashMap<>();
    private final Set<String> inDoubtMessages = ConcurrentHashMap.newKeySet();
    private final Set<String> inDoubtView = Collections.unmodifiableSet(inDoubtMessages);
    private volatile ReadyIndexLoader indexes;
    private volatile DueWork dueWork;

    /** Where a resolved branch's messages go back (set once, before any session opens). */
    public void connect(ReadyIndexLoader indexes, DueWork dueWork) {
        this.indexes = indexes;
        this.dueWork = dueWork;
    }

    public SessionTransaction get(XidKey xid) {
        return byXid.get(xid);
    }

    public void put(XidKey xid, SessionTransaction branch) {
        byXid.put(xid, branch);
    }

    public SessionTransaction remove(XidKey xid) {
        return byXid.remove(xid);
    }

    public boolean remove(XidKey xid, SessionTransaction branch) {
        return byXid.remove(xid, branch);
    }

    public Set<Map.Entry<XidKey, SessionTransaction>> entries() {
        return byXid.entrySet();
    }

    /** A branch of an earlier JVM the database still holds in doubt. */
    public void recovered(XidKey xid, SessionTransaction branch) {
        byXid.put(xid, branch);
        inDoubtMessages.addAll(branch.recoveredMessages());
    }

    /** The messages in-doubt branches hold: a live, read-only view. */
    public Set<String> inDoubtMessages() {
        return inDoubtView;
    }

    /**
     * A recovered branch was committed or rolled back and its outcome applied in the table: its
     * messages leave the in-doubt set and what is now available of them enters the ready indexes.
     */
    void resolved(List<String> msgids) {
        inDoubtMessages.removeAll(msgids);
        indexes.reload(msgids);
        dueWork.wake();
    }

    /** The indexes learn from the table (a branch of an earlier JVM ended through a session's resource). */
    void resynchronize() {
        indexes.resynchronize();
        dueWork.wake();
    }
}
