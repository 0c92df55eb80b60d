package org.rocprofsys.benchmarks;

import java.util.Locale;

/**
 * One benchmark's headline: its figure, the baseline measured in the same run and the figure's
 * ratio to that baseline, and the budget of docs/benchmarks.md with the figure's ratio to it.
 *
 * @param name          benchmark
 * @param figure        the measured value, in {@code unit}
 * @param unit          its unit
 * @param baselineName  what the same-run baseline is
 * @param baseline      the baseline's value, in {@code baselineUnit}
 * @param baselineUnit  its unit
 * @param ratioToBaseline figure / baseline as the benchmark defines it (printed as given)
 * @param goal          the budget, in {@code unit}; NaN for an informational row
 * @param higherIsBetter true for a throughput (the budget is a minimum), false for a cost
 */
public record Result(
        String name,
        double figure,
        String unit,
        String baselineName,
        double baseline,
        String baselineUnit,
        double ratioToBaseline,
        double goal,
        boolean higherIsBetter) {

    /** figure / goal: at most 1 meets a cost budget, at least 1 meets a throughput budget. */
    public double ratioToGoal() {
        return figure / goal;
    }

    /** An informational row: no budget (goal NaN). */
    public boolean hasGoal() {
        return !Double.isNaN(goal);
    }

    public boolean meetsGoal() {
        return higherIsBetter ? figure >= goal : figure <= goal;
    }

    public String goalText() {
        return hasGoal() ? (higherIsBetter ? ">= " : "<= ") + Main.number(goal) + " " + unit : "(none)";
    }

    String line() {
        return String.format(
                Locale.ROOT,
                "%-40s %10s %-8s | baseline %-32s %10s %-8s | x%-7s | goal %-16s x%-6s %s",
                name,
                Main.number(figure),
                unit,
                baselineName,
                Main.number(baseline),
                baselineUnit,
                Main.number(ratioToBaseline),
                goalText(),
                hasGoal() ? Main.number(ratioToGoal()) : "-",
                !hasGoal() ? "info" : meetsGoal() ? "MEETS" : "MISSES");
    }
}
