package io.aqueduct.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.AqError;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The container's user → the AQ agent enabled for HTTP of that name → its one database user, and each refusal with
 * 403, its AQ number and what an administrator does about it; the agents remembered for the configured time.
 */
class HttpUsersTest {
    private final MovableClock clock = new MovableClock();
    private final List<AqAgentInfo> agents = new ArrayList<>(List.of(
            new AqAgentInfo("JOHN", true, false, List.of("CBADM")),
            new AqAgentInfo("MAILONLY", false, true, List.of("CBADM")),
            new AqAgentInfo("LOOSE", true, false, List.of()),
            new AqAgentInfo("MANY", true, false, List.of("CBADM", "OE"))));
    private final AtomicInteger reads = new AtomicInteger();
    private final HttpUsers users = new HttpUsers(() -> {
        reads.incrementAndGet();
        return List.copyOf(agents);
    }, Duration.ofSeconds(10), clock);

    @Test
    void aUserWorksAsTheDatabaseUserOfTheHttpAgentOfItsNameWhateverItsCase() {
        assertThat(users.resolve("john")).isEqualTo(new HttpUser("john", "JOHN", "CBADM"));
        assertThat(users.resolve("John").sender().name()).isEqualTo("JOHN");
    }

    @Test
    void aUserThatIsNoAgentIsRefusedNamingCreateAqAgent() {
        assertRefused("alice", AqError.AGENT_NOT_FOUND, "The user alice is no AQ agent", "CREATE_AQ_AGENT",
                "createAqAgent(\"ALICE\", true, false)", "enableDbAccess");
        // a name that cannot be an agent (an e-mail address) is no agent either
        assertRefused("alice@example.com", AqError.AGENT_NOT_FOUND, "is no AQ agent");
    }

    @Test
    void anAgentNotEnabledForHttpIsRefused() {
        assertRefused("mailonly", AqError.INSUFFICIENT_PRIVILEGES, "MAILONLY is not enabled for HTTP", "enable_http",
                "alterAqAgent(\"MAILONLY\", true, null)");
    }

    @Test
    void anAgentMappedToNoDatabaseUserOrToSeveralIsRefused() {
        assertRefused("loose", AqError.AGENT_NOT_MAPPED, "LOOSE is mapped to no database user", "ENABLE_DB_ACCESS");
        assertRefused("many", AqError.AGENT_NOT_MAPPED, "MANY is mapped to the database users CBADM, OE", "exactly one",
                "DISABLE_DB_ACCESS");
    }

    @Test
    void theAgentsAreReadOnceForTheConfiguredTimeThenAgain() {
        users.resolve("john");
        users.resolve("JOHN");
        assertRefused("alice", AqError.AGENT_NOT_FOUND, "no AQ agent");
        assertThat(reads).hasValue(1);

        agents.add(new AqAgentInfo("ALICE", true, false, List.of("OE")));
        clock.advance(Duration.ofSeconds(9));
        assertRefused("alice", AqError.AGENT_NOT_FOUND, "no AQ agent");
        clock.advance(Duration.ofSeconds(1));
        assertThat(users.resolve("alice").dbUser()).isEqualTo("OE");
        assertThat(reads).hasValue(2);
    }

    private void assertRefused(String user, int code, String... sentence) {
        assertThatThrownBy(() -> users.resolve(user)).isInstanceOfSatisfying(HttpAccessException.class, e -> {
            assertThat(e.status()).isEqualTo(403);
            assertThat(e.errorCode()).isEqualTo(code);
            assertThat(e.getMessage()).contains(sentence);
        });
    }

    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-12-04T12:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
