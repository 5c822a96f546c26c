package io.aqueduct.it.payara;

/** Names shared by the crash application and the test that drives it. */
public final class Crash {
    /** The adapter deployed standalone ({@code asadmin deploy --name aqueduct-rar}). */
    public static final String RA = "aqueduct-rar";
    /** The server-wide connector resource of server-config/glassfish-resources.xml. */
    public static final String QUEUE_SESSIONS = "aqueduct/QueueSessions";
    /** The Derby XA pool's resource (embedded Derby in the Payara JVM, crash-resources.xml). */
    public static final String ROWS = "jdbc/CrashRows";
    public static final String TABLE = "CRASH_ROWS";
    /** The load's queue: the EJB enqueues keys here, the MDB consumes them. */
    public static final String QUEUE_A = "CRASH.A_Q";
    /** The MDB enqueues every key it processed here (nobody consumes it). */
    public static final String QUEUE_B = "CRASH.B_Q";
    public static final String QUEUE_TABLE = "CRASH.CRASH_QTAB";
    public static final String EXCEPTION_QUEUE = "CRASH.AQ$_CRASH_QTAB_E";
    /** The adapter's queue definitions (system property aqueduct.queueDefinitions of the domain). */
    public static final String QUEUE_DEFINITIONS = "table " + QUEUE_TABLE + " payload=TEXT; queue " + QUEUE_A + " table="
            + QUEUE_TABLE + " max_retries=1000 retry_delay=0; queue " + QUEUE_B + " table=" + QUEUE_TABLE;

    private Crash() {
    }
}
