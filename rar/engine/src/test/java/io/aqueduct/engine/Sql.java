package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain JDBC reads of the store, shared by the administration tests. Reads are READ UNCOMMITTED
 * so that a transaction left open by a test neither blocks them nor hides what it wrote.
 */
final class Sql {
    private Sql() {
    }

    @FunctionalInterface
    interface Connector {
        Connection open() throws SQLException;
    }

    static List<Map<String, Object>> rows(Connector connector, String query, Object... args) throws SQLException {
        try (Connection c = connector.open()) {
            c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            try (PreparedStatement ps = c.prepareStatement(query)) {
                for (int i = 0; i < args.length; i++) {
                    ps.setObject(i + 1, args[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    ResultSetMetaData md = rs.getMetaData();
                    List<Map<String, Object>> out = new ArrayList<>();
                    while (rs.next()) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            row.put(md.getColumnLabel(i).toUpperCase(java.util.Locale.ROOT), value(rs.getObject(i)));
                        }
                        out.add(row);
                    }
                    return out;
                }
            }
        }
    }

    private static Object value(Object v) throws SQLException {
        if (v instanceof Blob b) {
            return b.getBytes(1, (int) b.length());
        }
        if (v instanceof Clob c) {
            return c.getSubString(1, (int) c.length());
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime();
        }
        return v;
    }

    static Map<String, Object> single(Connector connector, String query, Object... args) throws SQLException {
        List<Map<String, Object>> rows = rows(connector, query, args);
        assertThat(rows).as("rows of %s", query).hasSize(1);
        return rows.get(0);
    }

    static Map<String, Object> queueTableRow(Connector connector, String owner, String name) throws SQLException {
        return single(connector, "SELECT * FROM DBA_QUEUE_TABLES WHERE OWNER = ? AND QUEUE_TABLE = ?", owner, name);
    }

    static Map<String, Object> queueRow(Connector connector, String owner, String name) throws SQLException {
        return single(connector, "SELECT * FROM DBA_QUEUES WHERE OWNER = ? AND NAME = ?", owner, name);
    }

    static long count(Connector connector, String query, Object... args) throws SQLException {
        return ((Number) single(connector, query, args).values().iterator().next()).longValue();
    }

    static List<String> strings(Connector connector, String query, Object... args) throws SQLException {
        return rows(connector, query, args).stream().map(r -> {
            Object v = r.values().iterator().next();
            return v == null ? null : v.toString().trim();
        }).toList();
    }

    static List<String> columns(Connector connector, String query) throws SQLException {
        try (Connection c = connector.open(); PreparedStatement ps = c.prepareStatement(query)) {
            ResultSetMetaData md = ps.getMetaData();
            List<String> out = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnName(i).toUpperCase(java.util.Locale.ROOT));
            }
            return out;
        }
    }

    static long num(Map<String, Object> row, String column) {
        Object v = row.get(column);
        assertThat(v).as(column).isInstanceOf(Number.class);
        return ((Number) v).longValue();
    }

    static boolean viewExists(Connector connector, String schema, String view) throws SQLException {
        return views(connector).contains(schema + "." + view);
    }

    /**
     * Every view of the store, as schema.name (MariaDB: its databases are the schemas). On a server
     * that holds other stores too (a benchmark's), only the views that read this store's messages.
     */
    static List<String> views(Connector connector) throws SQLException {
        try (Connection c = connector.open()) {
            String product = c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
            String query = product.contains("maria") || product.contains("mysql")
                    ? "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE()"
                            + " OR VIEW_DEFINITION LIKE CONCAT('%`', DATABASE(), '`.`AQ\\_MESSAGE`%')"
                    : product.contains("postgres")
                            ? "SELECT table_schema, table_name FROM information_schema.views WHERE table_schema = current_schema()"
                                    + " OR (table_schema, table_name) IN (SELECT view_schema, view_name"
                                    + " FROM information_schema.view_table_usage WHERE table_schema = current_schema())"
                            : null;
            List<String> out = new ArrayList<>();
            if (query != null) {
                try (PreparedStatement ps = c.prepareStatement(query); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1) + "." + rs.getString(2));
                    }
                }
                return out;
            }
            try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"VIEW"})) {
                while (rs.next()) {
                    out.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
                }
            }
            return out;
        }
    }

    /**
     * Everything an administrator sees of the queues in the store: the rows of DBA_QUEUE_TABLES and
     * DBA_QUEUES, the AQ$ views that exist and every message they show, and the schemas.
     */
    static List<String> snapshot(Connector connector) throws SQLException {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> r : rows(connector, "SELECT * FROM DBA_QUEUE_TABLES")) {
            out.add("queue table " + r);
        }
        for (Map<String, Object> r : rows(connector, "SELECT * FROM DBA_QUEUES")) {
            out.add("queue " + r);
        }
        for (String qualified : views(connector)) {
            if (!qualified.contains(".AQ$") || qualified.endsWith(".AQ$INTERNET_USERS")) {
                continue; // AQ$INTERNET_USERS is the agents' catalog view, not a queue table's
            }
            String[] parts = qualified.split("\\.", 2);
            String view = "\"" + parts[0] + "\".\"" + parts[1] + "\"";
            out.add("view " + view);
            for (Map<String, Object> m : rows(connector,
                    "SELECT QUEUE, MSG_ID, MSG_STATE, RETRY_COUNT, CORR_ID FROM " + view)) {
                out.add("message in " + view + " " + m);
            }
        }
        try (Connection c = connector.open(); ResultSet rs = c.getMetaData().getSchemas()) {
            while (rs.next()) {
                out.add("schema " + rs.getString(1));
            }
        }
        out.sort(null);
        return out;
    }
}
