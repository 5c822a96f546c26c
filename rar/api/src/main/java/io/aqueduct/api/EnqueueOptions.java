package io.aqueduct.api;

/** AQ's enqueue options. */
public final class EnqueueOptions {
    private Visibility visibility = Visibility.ON_COMMIT;

    public static EnqueueOptions create() {
        return new EnqueueOptions();
    }

    public EnqueueOptions visibility(Visibility visibility) {
        this.visibility = visibility == null ? Visibility.ON_COMMIT : visibility;
        return this;
    }

    public Visibility visibility() {
        return visibility;
    }
}
