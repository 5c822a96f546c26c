package io.aqueduct.connector;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Timer;

/** The container's bootstrap context, faked: a WorkManager on plain threads, nothing else. */
final class FakeBootstrapContext implements BootstrapContext {
    private final WorkManager workManager;

    FakeBootstrapContext(WorkManager workManager) {
        this.workManager = workManager;
    }

    @Override
    public WorkManager getWorkManager() {
        return workManager;
    }

    @Override
    public XATerminator getXATerminator() {
        return null; // no transaction inflow
    }

    @Override
    public Timer createTimer() {
        return new Timer(true);
    }

    @Override
    public boolean isContextSupported(Class<? extends WorkContext> workContextClass) {
        return false;
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return null;
    }
}
