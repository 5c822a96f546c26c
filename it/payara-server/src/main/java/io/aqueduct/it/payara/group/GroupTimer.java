package io.aqueduct.it.payara.group;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;

/**
 * A persistent schedule, as the sample's order timer: instances can only run it with the data grid
 * EJB timer service (shared-store.asadmin sets it), and it fires on one instance of the group at a time.
 */
@Singleton
public class GroupTimer {
    @Schedule(second = "*/2", minute = "*", hour = "*", persistent = true)
    void tick() {
        Group.TICKS.add(Group.instance());
    }
}
