package io.aqueduct.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The statements file: every name resolves on every database, overrides win, no state is a literal. */
class StatementsTest {
    private static final List<Dialect> DIALECTS = List.of(DerbyDialect.inMemory("statements-test"),
            new PostgresDialect(new JdbcSettings("jdbc:postgresql://127.0.0.1:5432/none", null, null)),
            new MariaDbDialect(new JdbcSettings("jdbc:mariadb://127.0.0.1:3306/none", null, null)));

    private static List<String> genericNames() {
        return Statements.all().keySet().stream().filter(n -> n.indexOf(Statements.OVERRIDE) < 0).toList();
    }

    @Test
    void every_name_resolves_for_every_database() {
        assertThat(genericNames()).isNotEmpty();
        for (String database : Statements.DATABASES) {
            for (String name : genericNames()) {
                assertThat(Statements.text(name, database)).as(name + "@" + database).isNotBlank();
            }
        }
        assertThat(DIALECTS).extracting(Dialect::database).containsExactlyElementsOf(Statements.DATABASES);
    }

    @Test
    void every_override_has_a_generic_statement_and_a_known_database() {
        for (String name : Statements.all().keySet()) {
            int at = name.indexOf(Statements.OVERRIDE);
            if (at >= 0) {
                assertThat(Statements.all()).as(name).containsKey(name.substring(0, at));
                assertThat(Statements.DATABASES).as(name).contains(name.substring(at + 1));
            }
        }
    }

    @Test
    void statements_use_only_known_placeholders_and_no_state_literals() {
        Pattern placeholder = Pattern.compile("\\{([A-Za-z]+)}");
        // STATE = 0, STATE <> 1, STATE IN (0, 3), WHEN 4 THEN ...
        Pattern stateLiteral = Pattern.compile("STATE\\s*(=|<>|!=|<|>|IN\\s*\\()\\s*\\d|WHEN\\s+\\d", Pattern.CASE_INSENSITIVE);
        for (Map.Entry<String, String> e : Statements.all().entrySet()) {
            Matcher m = placeholder.matcher(e.getValue());
            while (m.find()) {
                assertThat(Statements.PLACEHOLDERS).as(e.getKey()).contains(m.group(1));
            }
            assertThat(stateLiteral.matcher(e.getValue()).find()).as(e.getKey() + ": " + e.getValue()).isFalse();
        }
    }

    @Test
    void every_name_resolves_through_each_dialect() {
        for (Dialect d : DIALECTS) {
            for (String name : genericNames()) {
                String raw = Statements.text(name, d.database());
                if (raw.contains("{skipLocked}") && !d.shared()) {
                    // claims in the database are a shared store's: Derby's ready index claims in memory
                    assertThatThrownBy(() -> resolve(d, name, raw)).as(name).isInstanceOf(UnsupportedOperationException.class);
                    continue;
                }
                String sql = resolve(d, name, raw);
                assertThat(sql).as(name).doesNotContain("{limit}", "{dirtyRead}", "{skipLocked}", "{timeManagerBatch}");
                if (raw.contains("{ids}")) {
                    assertThat(Statements.ids(sql, 3)).as(name).contains("(?, ?, ?)").doesNotContain("{ids}");
                }
            }
        }
    }

    private static String resolve(Dialect d, String name, String raw) {
        return raw.contains("{limit}") ? d.sql(name, 7) : d.sql(name);
    }

    @Test
    void overrides_and_placeholders_follow_the_database() {
        Dialect derby = DIALECTS.get(0);
        Dialect postgres = DIALECTS.get(1);
        Dialect mariadb = DIALECTS.get(2);
        assertThat(postgres.sql("ledger.recordAttempts")).contains("ON CONFLICT (ID) DO UPDATE");
        assertThat(mariadb.sql("ledger.recordAttempts")).contains("ON DUPLICATE KEY UPDATE");
        assertThat(postgres.sql("store.nextSequenceBlock")).isEqualTo("SELECT nextval('aq_message_seq')");
        assertThat(mariadb.sql("store.nextSequenceBlock")).isEqualTo("SELECT NEXTVAL(AQ_MESSAGE_SEQ)");
        assertThat(derby.sql("time.dueMessages", 200)).isEqualTo("SELECT MSGID, QID, PRIORITY, ORDER_MS, GROUP_SEQ, SEQ,"
                + " CORRID, STATE, EXPIRATION, TIME_MANAGER_INFO FROM AQ_MESSAGE WHERE TIME_MANAGER_INFO <= ?"
                + " ORDER BY TIME_MANAGER_INFO FETCH FIRST 200 ROWS ONLY WITH UR");
        assertThat(postgres.sql("time.dueMessages", 200)).endsWith(" ORDER BY TIME_MANAGER_INFO LIMIT 200 FOR UPDATE SKIP LOCKED");
        assertThat(mariadb.sql("time.nextDueMessage")).isEqualTo("SELECT MIN(TIME_MANAGER_INFO) FROM AQ_MESSAGE WHERE TIME_MANAGER_INFO > ?");
        assertThat(derby.sql("time.nextDueMessage")).endsWith("TIME_MANAGER_INFO > ? WITH UR");
    }

    @Test
    void misuse_is_refused() {
        Dialect derby = DIALECTS.get(0);
        assertThatThrownBy(() -> derby.sql("no.such.statement")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no.such.statement");
        assertThatThrownBy(() -> derby.sql("store.nextSequenceBlock@postgresql")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> derby.sql("time.dueMessages")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("row limit");
        assertThatThrownBy(() -> derby.sql("time.nextDueMessage", 5)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Statements.ids("SELECT 1", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Statements.ids("IN ({ids})", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Statements.rows("SELECT 1", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Statements.rows("INSERT INTO T (A) VALUES (?)", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Statements.rows("INSERT INTO T (A) VALUES (?)", 2, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Statements.rows("INSERT INTO T (A) VALUES {rows}", 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void an_insert_of_one_row_is_made_one_of_several_rows() {
        assertThat(Statements.rows("INSERT INTO T (A, B) VALUES (?, ?)", 3))
                .isEqualTo("INSERT INTO T (A, B) VALUES (?, ?), (?, ?), (?, ?)");
        assertThat(Statements.rows("INSERT INTO T (A, B) VALUES (?, ?)", 1)).isEqualTo("INSERT INTO T (A, B) VALUES (?, ?)");
        String one = DIALECTS.get(1).sql("message.insert");
        String row = one.substring(one.lastIndexOf(" VALUES (") + " VALUES ".length());
        assertThat(Statements.rows(one, 2)).isEqualTo(one + ", " + row);
    }

    @Test
    void rows_placed_before_an_upsert_clause() {
        assertThat(Statements.rows("INSERT INTO T (A, B) VALUES {rows} ON CONFLICT (A) DO NOTHING", 2, 2))
                .isEqualTo("INSERT INTO T (A, B) VALUES (?, ?), (?, ?) ON CONFLICT (A) DO NOTHING");
        assertThat(Statements.rows(DIALECTS.get(1).sql("ledger.recordAttempts"), 1, 5))
                .contains("VALUES (?, ?, ?, ?, ?) ON CONFLICT (ID)");
    }

    @Test
    void the_queue_table_view_maps_states_from_the_enums() {
        assertThat(QueueTableViews.messageState("M.STATE"))
                .isEqualTo("CASE M.STATE WHEN 0 THEN 'READY' WHEN 1 THEN 'WAITING' WHEN 2 THEN 'PROCESSED' ELSE 'EXPIRED' END");
        assertThat(QueueTableViews.columnsAndSelect(true, 42, "AQ_MESSAGE", "AQ_QUEUE", "AQ_MESSAGE_CONSUMER", "P"))
                .contains(" AS SELECT Q.NAME, M.MSGID, M.CORRID, M.PRIORITY, CASE WHEN C.STATE = 4 THEN 'UNDELIVERABLE'"
                        + " WHEN C.STATE IS NULL OR M.STATE <> 0 THEN CASE M.STATE WHEN 0 THEN 'READY' WHEN 1 THEN 'WAITING'"
                        + " WHEN 2 THEN 'PROCESSED' ELSE 'EXPIRED' END WHEN C.STATE = 0 THEN 'READY' WHEN C.STATE = 1 THEN"
                        + " 'WAITING' WHEN C.STATE = 2 THEN 'PROCESSED' ELSE 'EXPIRED' END,")
                .contains(" LEFT JOIN AQ_MESSAGE_CONSUMER C ON C.MSGID = M.MSGID")
                .endsWith(" WHERE M.QT_ID = 42");
    }
}
