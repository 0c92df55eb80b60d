import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.core.perfetto.proto.TrackDescriptor;

/**
 * Prints a Perfetto trace as text that does not change between two runs of the same
 * deterministic program: tracks by name, then each track's slices in order with their depth,
 * category, name and annotations. Process and thread ids become tokens in order of first
 * appearance; times, addresses and other numeric annotation values become '#'.
 */
public final class TraceText {
    public static void main(String[] args) throws Exception {
        DecodedTrace trace = DecodedTrace.read(Path.of(args[0]));
        Map<Long, String> ids = new HashMap<>();
        for (DecodedTrace.Track t : trace.tracks.values()) {
            TrackDescriptor d = t.descriptor();
            if (d.hasProcess()) ids.putIfAbsent((long) d.getProcess().getPid(), "<pid" + ids.size() + ">");
            if (d.hasThread()) {
                ids.putIfAbsent((long) d.getThread().getPid(), "<pid" + ids.size() + ">");
                ids.putIfAbsent((long) d.getThread().getTid(), "<tid" + ids.size() + ">");
            }
        }
        Map<Long, String> trackNames = new HashMap<>();
        for (DecodedTrace.Track t : trace.tracks.values()) {
            TrackDescriptor d = t.descriptor();
            String name = d.hasName() ? d.getName() : d.hasThread() ? d.getThread().getThreadName()
                    : d.hasProcess() ? d.getProcess().getProcessName() : "";
            String kind = d.hasProcess() ? "process" : d.hasThread() ? "thread" : d.hasCounter() ? "counter" : "track";
            trackNames.put(t.uuid(), kind + " '" + ids(name, ids) + "'");
        }
        Map<String, List<String>> byTrack = new TreeMap<>();
        for (String n : trackNames.values()) byTrack.putIfAbsent(n, new ArrayList<>());
        for (DecodedTrace.Slice s : trace.slices) {
            StringBuilder line = new StringBuilder("  ".repeat(s.depth)).append(s.category).append(" | ")
                    .append(ids(s.name, ids));
            s.args.forEach((k, v) -> line.append(" ").append(k).append('=')
                    .append(v instanceof Number ? "#" : ids(String.valueOf(v), ids).replaceAll("ptr:[0-9a-f]+", "ptr:#")));
            if (!s.flowIds.isEmpty()) line.append(" flows=").append(s.flowIds.size());
            if (!s.terminatingFlowIds.isEmpty()) line.append(" terminating-flows=").append(s.terminatingFlowIds.size());
            byTrack.computeIfAbsent(trackNames.getOrDefault(s.trackUuid, "?"), k -> new ArrayList<>()).add(line.toString());
        }
        System.out.println("packets " + trace.packets.size() + ", tracks " + trace.tracks.size() + ", slices "
                + trace.slices.size());
        Map<String, Integer> sharing = new HashMap<>();
        trackNames.values().forEach(n -> sharing.merge(n, 1, Integer::sum));
        byTrack.forEach((name, lines) -> {
            System.out.println(name);
            // tracks of one name (fork children's threads) interleave by scheduling: compare them as sets
            lines.stream().sorted(sharing.getOrDefault(name, 1) > 1 ? java.util.Comparator.naturalOrder()
                    : (a, b) -> 0).forEach(System.out::println);
        });
    }

    private static final Pattern NUMBER = Pattern.compile("\\b\\d+\\b");

    private static String ids(String text, Map<Long, String> ids) {
        Matcher m = NUMBER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String token = m.group().length() < 19 ? ids.get(Long.parseLong(m.group())) : null;
            m.appendReplacement(out, Matcher.quoteReplacement(token != null ? token : m.group()));
        }
        return m.appendTail(out).toString();
    }
}
