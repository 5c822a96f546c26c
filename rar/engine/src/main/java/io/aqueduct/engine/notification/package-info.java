/**
 * Notifications (DBMS_AQ.REGISTER / UNREGISTER, AQ$_REG_INFO, AQ$_DESCRIPTOR): the registrations
 * ({@link io.aqueduct.engine.notification.Registrations}, stored and held in memory per queue), the
 * notifications a message gives when it becomes available ({@link io.aqueduct.engine.notification.Notifier#plan},
 * asked by the enqueue and the retry accounting) and the loop that delivers them to in-JVM listeners,
 * HTTP endpoints and mail addresses ({@link io.aqueduct.engine.notification.Notifier}).
 */
package io.aqueduct.engine.notification;
