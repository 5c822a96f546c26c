package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.AqError;
import io.aqueduct.api.QueueAdmin;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AQ agents (CREATE_AQ_AGENT, ALTER_AQ_AGENT, DROP_AQ_AGENT, ENABLE_DB_ACCESS, DISABLE_DB_ACCESS) as
 * aqAgents() and the AQ$INTERNET_USERS view show them; AQ's errors for unknown and existing agents;
 * bad names change nothing; managing agents needs MANAGE_ANY.
 */
class AgentsTest extends EngineFixture {

    private List<String> internetUsers() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = sql(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT AGENT_NAME, DB_USERNAME, HTTP_ENABLED, SMTP_ENABLED FROM \"AQ$INTERNET_USERS\""
                        + " ORDER BY AGENT_NAME, DB_USERNAME")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " http=" + rs.getString(3) + " smtp=" + rs.getString(4));
            }
        }
        return rows;
    }

    @Test
    void an_agent_is_created_mapped_to_database_users_altered_and_dropped() throws SQLException {
        admin.createAqAgent("John", true, false);
        admin.createAqAgent("mailer", false, true);
        admin.enableDbAccess("john", "CBADM");
        admin.enableDbAccess("JOHN", "oe");
        admin.enableDbAccess("JOHN", "OE"); // again: nothing changes
        assertThat(admin.aqAgents()).containsExactly(
                new AqAgentInfo("JOHN", true, false, List.of("CBADM", "OE")),
                new AqAgentInfo("MAILER", false, true, List.of()));
        assertThat(internetUsers()).containsExactly(
                "JOHN CBADM http=YES smtp=NO",
                "JOHN OE http=YES smtp=NO",
                "MAILER null http=NO smtp=YES");

        admin.alterAqAgent("JOHN", null, true);
        admin.disableDbAccess("JOHN", "CBADM");
        assertThat(admin.aqAgents().get(0)).isEqualTo(new AqAgentInfo("JOHN", true, true, List.of("OE")));
        admin.alterAqAgent("JOHN", false, null);
        assertThat(admin.aqAgents().get(0)).isEqualTo(new AqAgentInfo("JOHN", false, true, List.of("OE")));

        admin.dropAqAgent("JOHN");
        assertThat(admin.aqAgents()).extracting(AqAgentInfo::name).containsExactly("MAILER");
        assertThat(internetUsers()).containsExactly("MAILER null http=NO smtp=YES");
        // a new agent of the dropped one's name starts without its mappings
        admin.createAqAgent("JOHN", true, false);
        assertThat(admin.aqAgents().get(0).dbUsers()).isEmpty();
    }

    @Test
    void unknown_and_existing_agents_are_aqs_errors_and_change_nothing() {
        admin.createAqAgent("JOHN", true, false);
        admin.enableDbAccess("JOHN", "OE");
        List<AqAgentInfo> before = admin.aqAgents();
        expectError(AqError.AGENT_EXISTS, () -> admin.createAqAgent("john", false, false));
        expectError(AqError.AGENT_NOT_FOUND, () -> admin.alterAqAgent("MARY", true, true));
        expectError(AqError.AGENT_NOT_FOUND, () -> admin.dropAqAgent("MARY"));
        expectError(AqError.AGENT_NOT_FOUND, () -> admin.enableDbAccess("MARY", "OE"));
        expectError(AqError.AGENT_NOT_FOUND, () -> admin.disableDbAccess("MARY", "OE"));
        expectError(AqError.AGENT_NOT_MAPPED, () -> admin.disableDbAccess("JOHN", "SCOTT"));
        assertThat(admin.aqAgents()).isEqualTo(before);
    }

    @Test
    void bad_names_are_refused_before_anything_is_written() {
        expectError(AqError.INVALID_NAME, () -> admin.createAqAgent(null, true, false));
        expectError(AqError.INVALID_NAME, () -> admin.createAqAgent("  ", true, false));
        expectError(AqError.INVALID_NAME, () -> admin.createAqAgent("john doe", true, false));
        expectError(AqError.INVALID_NAME, () -> admin.createAqAgent("9LIVES", true, false));
        expectError(AqError.INVALID_NAME, () -> admin.createAqAgent("JO\u0000HN", true, false));
        expectError(AqError.NAME_TOO_LONG, () -> admin.createAqAgent("J".repeat(31), true, false));
        admin.createAqAgent("J".repeat(30), true, false);
        expectError(AqError.INVALID_NAME, () -> admin.enableDbAccess("J".repeat(30), "O'E"));
        expectError(AqError.NAME_TOO_LONG, () -> admin.enableDbAccess("J".repeat(30), "O".repeat(31)));
        assertThat(admin.aqAgents()).containsExactly(new AqAgentInfo("J".repeat(30), true, false, List.of()));
    }

    @Test
    void managing_agents_needs_manage_any() {
        QueueAdmin clerk = session("CLERK").admin();
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> clerk.createAqAgent("JOHN", true, false));
        assertThat(admin.aqAgents()).isEmpty();
        admin.createAqAgent("JOHN", true, false);
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> clerk.enableDbAccess("JOHN", "CLERK"));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> clerk.dropAqAgent("JOHN"));
        assertThat(clerk.aqAgents()).containsExactly(new AqAgentInfo("JOHN", true, false, List.of()));

        admin.grantSystemPrivilege(io.aqueduct.api.SystemPrivilege.MANAGE_ANY, "CLERK", false);
        clerk.enableDbAccess("JOHN", "CLERK");
        assertThat(admin.aqAgents().get(0).dbUsers()).containsExactly("CLERK");
    }
}
