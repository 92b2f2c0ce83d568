package org.raidb.tools.bench;

/** One of the targets, judged on this run's figures. */
record TargetVerdict(String target, Status status, String measured) {

    enum Status {
        MET("met"),
        NOT_MET("NOT met"),
        NOT_MEASURED("not measured");

        private final String text;

        Status(String text) {
            this.text = text;
        }

        String text() {
            return text;
        }
    }

    String line() {
        return target + ": " + status.text() + (measured.isEmpty() ? "" : " (" + measured + ")");
    }
}
