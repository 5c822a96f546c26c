package io.aqueduct.api;

/** The order in which messages of a queue table's queues are dequeued (AQ's sort_list). */
public enum SortOrder {
    /** First in, first out: {@code enq_time}. The default. */
    ENQ_TIME("ENQ_TIME"),
    /** Highest priority (lowest number) first, FIFO among equal priorities: {@code priority,enq_time}. */
    PRIORITY_ENQ_TIME("PRIORITY,ENQ_TIME"),
    /** FIFO, priority breaking ties of equal enqueue time: {@code enq_time,priority}. */
    ENQ_TIME_PRIORITY("ENQ_TIME,PRIORITY");

    private final String sortList;

    SortOrder(String sortList) {
        this.sortList = sortList;
    }

    /** AQ's spelling, as shown in the catalog view. */
    public String sortList() {
        return sortList;
    }

    /** Parses AQ's sort_list ("priority,enq_time"), case and blanks ignored. */
    public static SortOrder fromSortList(String text) {
        String norm = text == null ? "" : text.replace(" ", "").toUpperCase(java.util.Locale.ROOT);
        for (SortOrder o : values()) {
            if (o.sortList.equals(norm)) {
                return o;
            }
        }
        throw new AqException(AqError.INVALID_VALUE, "Unknown sort list '" + text
                + "': use enq_time, priority,enq_time or enq_time,priority.");
    }
}
