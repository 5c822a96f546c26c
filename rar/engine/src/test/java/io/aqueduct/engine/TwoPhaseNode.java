package io.aqueduct.engine;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.engine.session.EngineSession;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A node that moves messages from SRC to DST in two-phase-committed XA branches, as a transaction
 * manager would drive it: dequeue + enqueue in one branch, prepare, force the decision to a log,
 * commit. {@link CrashRecoveryTest} kills it at random moments. It prints each step:
 *
 * <pre>
 * STARTED              the engine is open
 * DEQUEUED key n       the branch holds the key's message, dequeued n times before
 * PREPARED key         the branch is prepared
 * HANGING              (hangAfter reached) it waits, prepared, to be killed
 * DECIDED key          the commit decision is on disk
 * COMMITTED key        the branch is committed
 * DRAINED              SRC is empty
 * </pre>
 *
 * Arguments: the store ({@code derby:DIR} or {@code shared}), the decision log, the branch after
 * whose prepare it hangs (0: never).
 */
public final class TwoPhaseNode {
    static final int FORMAT_ID = 0x4151_5450;

    private TwoPhaseNode() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (args[2].equals("hold")) {
            hold(args[0], out);
            return;
        }
        int hangAfter = Integer.parseInt(args[2]);
        try (AqueductEngine engine = CrashRecoveryTest.engine(args[0]);
                FileChannel log = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND)) {
            EngineSession s = engine.openSession("NODE");
            XAResource xa = s.xaResource();
            out.println("STARTED");
            DequeueOptions take = DequeueOptions.create().navigation(Navigation.FIRST_MESSAGE).waitSeconds(DequeueOptions.NO_WAIT);
            for (int n = 1;; n++) {
                Xid xid = xid(ProcessHandle.current().pid() + "-" + n);
                xa.start(xid, XAResource.TMNOFLAGS);
                Message m;
                try {
                    m = s.dequeue("SRC", take);
                } catch (AqException e) {
                    xa.end(xid, XAResource.TMSUCCESS);
                    xa.rollback(xid);
                    if (e.errorCode() != AqError.NO_MESSAGE) {
                        throw e;
                    }
                    out.println("DRAINED");
                    return;
                }
                out.println("DEQUEUED " + m.text() + " " + m.properties().attempts());
                s.enqueue("DST", Message.of(m.text()));
                xa.end(xid, XAResource.TMSUCCESS);
                xa.prepare(xid);
                out.println("PREPARED " + m.text());
                if (n == hangAfter) {
                    out.println("HANGING");
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                }
                log.write(ByteBuffer.wrap(("COMMIT " + HexFormat.of().formatHex(xid.getGlobalTransactionId()) + "\n")
                        .getBytes(StandardCharsets.US_ASCII)));
                log.force(true); // the transaction manager's decision outlives the crash
                out.println("DECIDED " + m.text());
                xa.commit(xid, false);
                out.println("COMMITTED " + m.text());
            }
        }
    }

    /**
     * One branch that takes a message from SRC and enqueues a delayed one to LATER, prepared and
     * left in doubt: it prints PREPARED and waits to be killed.
     */
    private static void hold(String store, PrintStream out) throws Exception {
        try (AqueductEngine engine = CrashRecoveryTest.engine(store)) {
            EngineSession s = engine.openSession("NODE");
            XAResource xa = s.xaResource();
            Xid xid = xid("held");
            xa.start(xid, XAResource.TMNOFLAGS);
            Message m = s.dequeue("SRC", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
            s.enqueue("LATER", Message.of("from the branch", io.aqueduct.api.MessageProperties.create().delay(5)));
            xa.end(xid, XAResource.TMSUCCESS);
            xa.prepare(xid);
            out.println("PREPARED " + m.text());
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }

    static Xid xid(String name) {
        byte[] gtrid = ("tm-" + name).getBytes(StandardCharsets.US_ASCII);
        byte[] bqual = {1};
        return new Xid() {
            @Override
            public int getFormatId() {
                return FORMAT_ID;
            }

            @Override
            public byte[] getGlobalTransactionId() {
                return gtrid;
            }

            @Override
            public byte[] getBranchQualifier() {
                return bqual;
            }
        };
    }
}
