package io.aqueduct.samples.booksonline;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Creates BooksOnLine's business tables (orders, shipments, billings, customer notifications) in its JDBC resource
 * when they are missing.
 */
@Singleton
@Startup
public class BooksSchema {
    @Resource(lookup = BooksOnLine.BOOKS_DB)
    private DataSource books;

    /** Runs in a container transaction (a singleton's PostConstruct is REQUIRED); Derby's DDL is transactional. */
    @PostConstruct
    void create() {
        try (Connection c = books.getConnection(); Statement s = c.createStatement()) {
            createIfMissing(s, "CREATE TABLE BOOKED_ORDERS (ORDER_ID VARCHAR(64) PRIMARY KEY, CUSTOMER VARCHAR(128) NOT NULL,"
                    + " SHIPPING VARCHAR(16) NOT NULL, REGION VARCHAR(32) NOT NULL, MSGID VARCHAR(64) NOT NULL,"
                    + " BOOKED_AT TIMESTAMP NOT NULL)");
            createIfMissing(s, "CREATE TABLE SHIPMENTS (ORDER_ID VARCHAR(64) PRIMARY KEY, SHIPPING VARCHAR(16) NOT NULL,"
                    + " ATTEMPT INT NOT NULL, SHIPPED_AT TIMESTAMP NOT NULL)");
            createIfMissing(s, "CREATE TABLE BILLINGS (ORDER_ID VARCHAR(64) PRIMARY KEY, CUSTOMER VARCHAR(128) NOT NULL,"
                    + " AMOUNT DECIMAL(9,2) NOT NULL, JMS_MESSAGE_ID VARCHAR(80) NOT NULL, DELIVERY_COUNT INT NOT NULL,"
                    + " BILLED_AT TIMESTAMP NOT NULL)");
            createIfMissing(s, "CREATE TABLE NOTIFICATIONS (ORDER_ID VARCHAR(64) PRIMARY KEY, CUSTOMER VARCHAR(128) NOT NULL,"
                    + " TEXT VARCHAR(512) NOT NULL, NOTIFIED_AT TIMESTAMP NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException("BooksOnLine could not create its tables: " + e.getMessage(), e);
        }
    }

    private static void createIfMissing(Statement s, String ddl) throws SQLException {
        try {
            s.executeUpdate(ddl);
        } catch (SQLException e) {
            if (!"X0Y32".equals(e.getSQLState()) && !"42P07".equals(e.getSQLState())) { // already exists
                throw e;
            }
        }
    }
}
