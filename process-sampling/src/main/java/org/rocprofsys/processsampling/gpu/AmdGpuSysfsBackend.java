package org.rocprofsys.processsampling.gpu;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocprofsys.core.event.CounterSample;

/**
 * AMD GPUs through the amdgpu driver's sysfs files, the fallback where AMD SMI is missing or fails.
 * Under {@code <root>/sys/class/drm/card<N>/device} with {@code vendor} 0x1002:
 * {@code gpu_busy_percent} (GFX Busy, %), {@code mem_busy_percent} (UMC Busy, %),
 * {@code hwmon/hwmon*}{@code /temp<i>_input} (millidegrees C; the sensor labelled "junction" as
 * AMD SMI reads, else {@code temp1_input}, the "edge" sensor), {@code hwmon/hwmon*}{@code
 * /power1_input}, else {@code power1_average} (microwatts), and {@code mem_info_vram_used} (bytes,
 * written as MB of 10^6 bytes). Each file holds one integer and a newline. sysfs has no multimedia
 * busy, VCN or JPEG file: those metrics are skipped with a notice.
 *
 * <p>The files stay open; each tick re-reads them from offset 0, which makes the kernel produce a
 * fresh value (seq_file restarts at position 0), so a tick costs one pread per metric.
 */
final class AmdGpuSysfsBackend extends AbstractGpuBackend {
    static final String AMD_VENDOR = "0x1002";
    private static final Pattern CARD = Pattern.compile("card(\\d+)");
    private static final Pattern TEMP_LABEL = Pattern.compile("temp(\\d+)_label");
    private static final GpuMetric[] FILE_METRICS = {
        GpuMetric.BUSY_GFX, GpuMetric.BUSY_UMC, GpuMetric.TEMPERATURE, GpuMetric.POWER, GpuMetric.MEMORY_USAGE
    };

    /** One amdgpu card found under the root. */
    record Card(int card, Path device, String name) {}

    /** [device slot][FILE_METRICS position]: the open file, null where absent or not wanted. */
    private final FileChannel[][] files;
    /** What divides a file's integer into the track's unit: %, %, millidegrees, microwatts, bytes. */
    private static final double[] DIVISOR = {1, 1, 1000, 1e6, 1e6};

    private final ByteBuffer buf = ByteBuffer.allocateDirect(64);

    private AmdGpuSysfsBackend(List<GpuDevice> devices, List<Card> cards, Set<GpuMetric> metrics, PrintStream log) {
        super("amdgpu-sysfs", devices, metrics, log);
        files = new FileChannel[devices.size()][FILE_METRICS.length];
        for (int d = 0; d < devices.size(); d++) {
            Path dev = cards.get(d).device();
            Path hwmon = hwmon(dev);
            Path[] paths = {
                dev.resolve("gpu_busy_percent"),
                dev.resolve("mem_busy_percent"),
                hwmon == null ? null : temperatureFile(hwmon),
                hwmon == null ? null : firstExisting(hwmon.resolve("power1_input"), hwmon.resolve("power1_average")),
                dev.resolve("mem_info_vram_used"),
            };
            String[] missing = {
                "gpu_busy_percent",
                "mem_busy_percent",
                "hwmon temp*_input",
                "hwmon power1_input/power1_average",
                "mem_info_vram_used"
            };
            for (int i = 0; i < FILE_METRICS.length; i++) {
                GpuMetric m = FILE_METRICS[i];
                if (!wants(d, m)) {
                    continue;
                }
                Path p = paths[i];
                if (p == null || !Files.isRegularFile(p)) {
                    unsupported(d, m, "has no sysfs file (" + (p == null ? missing[i] : p) + " is missing)");
                    continue;
                }
                try {
                    files[d][i] = FileChannel.open(p, StandardOpenOption.READ);
                } catch (IOException | SecurityException e) {
                    unsupported(d, m, "cannot be read (" + p + ": " + e.getMessage() + ")");
                }
            }
            unsupported(d, GpuMetric.BUSY_MM, "has no amdgpu sysfs file");
            unsupported(d, GpuMetric.VCN_ACTIVITY, "has no amdgpu sysfs file (AMD SMI reads it)");
            unsupported(d, GpuMetric.JPEG_ACTIVITY, "has no amdgpu sysfs file (AMD SMI reads it)");
        }
    }

    /**
     * The amdgpu cards under {@code root}, in card order.
     */
    static List<Card> scan(Path root) {
        Path drm = root.resolve("sys/class/drm");
        List<Card> out = new ArrayList<>();
        if (!Files.isDirectory(drm)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(drm)) {
            for (Path p : ds) {
                Matcher m = CARD.matcher(p.getFileName().toString());
                if (!m.matches()) {
                    continue; // card0-DP-1 connectors, renderD128, version
                }
                Path dev = p.resolve("device");
                String vendor = readLine(dev.resolve("vendor"));
                if (vendor == null || !vendor.toLowerCase(Locale.ROOT).equals(AMD_VENDOR)) {
                    continue;
                }
                String name = readLine(dev.resolve("product_name"));
                if (name == null || name.isBlank()) {
                    String id = readLine(dev.resolve("device"));
                    name = "AMD GPU" + (id == null ? "" : " " + id);
                }
                Path real;
                try {
                    real = dev.toRealPath(); // the PCI device directory: its name is the PCI address
                } catch (IOException e) {
                    real = dev;
                }
                out.add(new Card(Integer.parseInt(m.group(1)), real, name.strip()));
            }
        } catch (IOException e) {
            return out;
        }
        out.sort(Comparator.comparingInt(Card::card));
        return out;
    }

    /**
     * Takes the selected cards.
     *
     * @param firstIndex the number the user sees for the first card
     * @return null where no card is selected
     */
    static AmdGpuSysfsBackend open(
            List<Card> cards, Set<GpuMetric> metrics, GpuDeviceSelection selection, int firstIndex, PrintStream log) {
        List<GpuDevice> devices = new ArrayList<>();
        List<Card> chosen = new ArrayList<>();
        for (int i = 0; i < cards.size(); i++) {
            int index = firstIndex + i;
            if (selection.includes(index)) {
                Card c = cards.get(i);
                devices.add(new GpuDevice(index, c.name(), c.device().toString()));
                chosen.add(c);
            }
        }
        return devices.isEmpty() ? null : new AmdGpuSysfsBackend(devices, chosen, metrics, log);
    }

    private static Path hwmon(Path dev) {
        Path dir = dev.resolve("hwmon");
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("hwmon"))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .findFirst()
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** The sensor labelled "junction" where there is one (what AMD SMI reads), else temp1 ("edge"). */
    private static Path temperatureFile(Path hwmon) {
        try (var s = Files.list(hwmon)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Matcher m = TEMP_LABEL.matcher(p.getFileName().toString());
                if (m.matches() && "junction".equalsIgnoreCase(readLine(p))) {
                    Path input = hwmon.resolve("temp" + m.group(1) + "_input");
                    if (Files.isRegularFile(input)) {
                        return input;
                    }
                }
            }
        } catch (IOException e) {
            // fall through to temp1
        }
        return hwmon.resolve("temp1_input");
    }

    private static Path firstExisting(Path... paths) {
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return paths[0];
    }

    private static String readLine(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    @Override
    void sampleDevice(int d, long ts, Consumer<CounterSample> out) {
        FileChannel[] row = files[d];
        for (int i = 0; i < FILE_METRICS.length; i++) {
            FileChannel ch = row[i];
            if (ch == null) {
                continue;
            }
            GpuMetric m = FILE_METRICS[i];
            long v;
            try {
                v = readInteger(ch);
            } catch (IOException | NumberFormatException e) {
                unsupported(d, m, "cannot be read (" + e.getMessage() + ")");
                close(row, i);
                continue;
            }
            emit(d, m, ts, v / DIVISOR[i], out);
        }
    }

    /** The integer at the start of the file (kernel format: digits, maybe a sign, then a newline). */
    private long readInteger(FileChannel ch) throws IOException {
        buf.clear();
        int n = ch.read(buf, 0);
        if (n <= 0) {
            throw new NumberFormatException("empty file");
        }
        long v = 0;
        int i = 0;
        boolean negative = false;
        if (buf.get(0) == '-') {
            negative = true;
            i = 1;
        }
        int digits = 0;
        for (; i < n; i++) {
            byte b = buf.get(i);
            if (b < '0' || b > '9') {
                break;
            }
            v = v * 10 + (b - '0');
            digits++;
        }
        if (digits == 0) {
            throw new NumberFormatException("not an integer");
        }
        return negative ? -v : v;
    }

    private static void close(FileChannel[] row, int i) {
        try {
            row[i].close();
        } catch (IOException ignored) {
            // already unusable
        }
        row[i] = null;
    }

    @Override
    void release() {
        for (FileChannel[] row : files) {
            for (int i = 0; i < row.length; i++) {
                if (row[i] != null) {
                    close(row, i);
                }
            }
        }
    }
}
