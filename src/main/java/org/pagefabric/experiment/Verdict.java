package org.pagefabric.experiment;

/** What the comparison concludes for one published number. */
public enum Verdict {
    /** Ours satisfies the claim within its tolerance. */
    WITHIN("within"),
    /** Ours does not, or we have no value for it. */
    OUTSIDE("outside"),
    /** The run is not the paper's set-up ({@code --quick}, {@code --set}, an x that did not run, no x). */
    NOT_COMPARABLE("not comparable"),
    /** The seed withholds the number: ours only. */
    WITHHELD("withheld");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    /** The verdict as the comparison table writes it. */
    public String text() {
        return text;
    }
}
