package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A database link: a name for another Aqueduct store (a JDBC URL or a Derby store directory). */
@Entity
@Table(name = "AQ_DBLINK")
public class DatabaseLinkEntity {
    @Id
    @Column(name = "NAME")
    public String name;
    @Column(name = "URL")
    public String url;
    @Column(name = "USERNAME")
    public String user;
    @Column(name = "PASSWORD")
    public String password;
    @Column(name = "CREATED_MS")
    public long createdMs;
}
