package io.aqueduct.api;

import java.util.List;

/**
 * An AQ agent (DBMS_AQADM.CREATE_AQ_AGENT): a name an Internet user works under, whether it may use
 * HTTP and mail (SMTP), and the database users it may act as (ENABLE_DB_ACCESS), as AQ$INTERNET_USERS
 * shows them.
 *
 * @param name the agent's name (upper-case)
 * @param httpEnabled whether the agent may use the HTTP access
 * @param smtpEnabled whether the agent may use mail
 * @param dbUsers the database users the agent may act as, in name order (upper-case)
 */
public record AqAgentInfo(String name, boolean httpEnabled, boolean smtpEnabled, List<String> dbUsers) {
    public AqAgentInfo {
        dbUsers = List.copyOf(dbUsers);
    }
}
