package org.rocprofsys.core.timemory;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers written the way the C++ side writes them.
 *
 * <ul>
 * <li>{@link #fixed}/{@link #scientific}: {@code std::ostream} with {@code std::fixed} (and
 * {@code showpoint}) or {@code std::scientific} and a precision, i.e. glibc's {@code %.Nf} /
 * {@code %.Ne}: the exact binary value rounded half-to-even, a minus sign kept on values that
 * round to zero.</li>
 * <li>{@link #json}: cereal's rapidjson writer with {@code SetMaxDecimalPlaces(16)} (timemory's
 * JSON archive precision): the shortest round-trip digits placed by rapidjson's
 * {@code Prettify} ({@code 0.0}, {@code 12.5}, {@code 0.000009808}, {@code 8.50084e-13},
 * {@code 1e30}).</li>
 * </ul>
 */
final class NumberText {
    private static final int JSON_MAX_DECIMALS = 16;

    private NumberText() {}

    /** {@code std::fixed} (with {@code showpoint} when {@code showpoint}) and {@code precision}. */
    static String fixed(double v, int precision, boolean showpoint) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v < 0 ? "-inf" : "inf";
        }
        boolean negative = Double.doubleToRawLongBits(v) < 0;
        String body = new BigDecimal(Math.abs(v))
                .setScale(precision, RoundingMode.HALF_EVEN)
                .toPlainString();
        if (precision == 0 && showpoint) {
            body += ".";
        }
        return negative ? "-" + body : body;
    }

    /** {@code std::scientific} with {@code precision}: d.ddddde+XX. */
    static String scientific(double v, int precision) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v < 0 ? "-inf" : "inf";
        }
        boolean negative = Double.doubleToRawLongBits(v) < 0;
        double a = Math.abs(v);
        String digits;
        int exp;
        if (a == 0) {
            digits = "0".repeat(precision + 1);
            exp = 0;
        } else {
            BigDecimal bd = new BigDecimal(a).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
            String u = bd.unscaledValue().toString();
            exp = u.length() - 1 - bd.scale();
            StringBuilder d = new StringBuilder(u);
            while (d.length() < precision + 1) {
                d.append('0');
            }
            digits = d.substring(0, precision + 1);
        }
        StringBuilder out = new StringBuilder();
        if (negative) {
            out.append('-');
        }
        out.append(digits.charAt(0));
        if (precision > 0) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exp < 0 ? '-' : '+');
        int e = Math.abs(exp);
        if (e < 10) {
            out.append('0');
        }
        out.append(e);
        return out.toString();
    }

    /** A double as timemory's JSON archive writes it. */
    static String json(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            // rapidjson refuses them without kWriteNanAndInfFlag; cereal then throws. Write null.
            return "null";
        }
        boolean negative = Double.doubleToRawLongBits(v) < 0;
        if (v == 0) {
            return negative ? "-0.0" : "0.0";
        }
        BigDecimal bd = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
        String digits = bd.unscaledValue().toString();
        int k = -bd.scale();
        return (negative ? "-" : "") + prettify(digits, k, JSON_MAX_DECIMALS);
    }

    /** rapidjson {@code internal::Prettify}: {@code digits} x 10^{@code k}. */
    static String prettify(String digits, int k, int maxDecimalPlaces) {
        int length = digits.length();
        int kk = length + k;
        StringBuilder b = new StringBuilder();
        if (0 <= k && kk <= 21) {
            b.append(digits);
            b.append("0".repeat(kk - length));
            b.append(".0");
            return b.toString();
        }
        if (0 < kk && kk <= 21) {
            b.append(digits, 0, kk).append('.').append(digits, kk, length);
            if (0 > k + maxDecimalPlaces) {
                // cut to maxDecimalPlaces decimals, drop trailing zeros but keep one digit
                String dec = digits.substring(kk, Math.min(length, kk + maxDecimalPlaces));
                int end = dec.length();
                while (end > 1 && dec.charAt(end - 1) == '0') {
                    end--;
                }
                return digits.substring(0, kk) + "." + dec.substring(0, end);
            }
            return b.toString();
        }
        if (-6 < kk && kk <= 0) {
            StringBuilder dec = new StringBuilder();
            dec.append("0".repeat(-kk)).append(digits);
            if (length - kk > maxDecimalPlaces) {
                String cut = dec.substring(0, maxDecimalPlaces);
                int end = cut.length();
                while (end > 1 && cut.charAt(end - 1) == '0') {
                    end--;
                }
                return "0." + cut.substring(0, end);
            }
            return "0." + dec;
        }
        if (kk < -maxDecimalPlaces) {
            return "0.0";
        }
        if (length == 1) {
            return digits + "e" + (kk - 1);
        }
        return digits.charAt(0) + "." + digits.substring(1) + "e" + (kk - 1);
    }
}
