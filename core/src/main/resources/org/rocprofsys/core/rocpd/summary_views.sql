-- Summary views: rocprofiler-sdk's summary_views.sql (top_kernels, busy, top) and the four that
-- rocprof-sys's copy adds (kernel_summary, kernel_summary_region, memory_copy_summary,
-- memory_allocation_summary), with their names and columns. Durations in the SDK views are in
-- microseconds (nanoseconds / 1000.0), in rocprof-sys's in nanoseconds.

CREATE VIEW "top_kernels" AS
SELECT ks.display_name AS name,
       COUNT(k.kernel_id) AS total_calls,
       SUM(k.end - k.start) / 1000.0 AS total_duration,
       (SUM(k.end - k.start) / COUNT(k.kernel_id)) / 1000.0 AS average,
       SUM(k.end - k.start) * 100.0
           / NULLIF((SELECT SUM(x.end - x.start) FROM "rocpd_kernel_dispatch" x), 0) AS percentage
  FROM "rocpd_kernel_dispatch" k
  JOIN "rocpd_info_kernel_symbol" ks ON ks.id = k.kernel_id
 GROUP BY name
 ORDER BY total_duration DESC
;
CREATE VIEW "busy" AS
SELECT g.agent_id, ag.type, g.GpuTime, w.WallTime, g.GpuTime * 1.0 / NULLIF(w.WallTime, 0) AS Busy
  FROM (SELECT agent_id, guid, SUM("end" - start) AS GpuTime
          FROM (SELECT agent_id, guid, "end", start FROM "rocpd_kernel_dispatch"
                UNION ALL
                SELECT dst_agent_id AS agent_id, guid, "end", start FROM "rocpd_memory_copy")
         GROUP BY agent_id, guid) g
  JOIN (SELECT MAX("end") - MIN(start) AS WallTime
          FROM (SELECT "end", start FROM "rocpd_kernel_dispatch"
                UNION ALL
                SELECT "end", start FROM "rocpd_memory_copy")) w ON 1 = 1
  JOIN "rocpd_info_agent" ag ON ag.id = g.agent_id
;
CREATE VIEW "top" AS
SELECT name,
       COUNT(*) AS total_calls,
       SUM(duration) / 1000.0 AS total_duration,
       (SUM(duration) / COUNT(*)) / 1000.0 AS average,
       SUM(duration) * 100.0 / NULLIF(total_time, 0) AS percentage
  FROM (SELECT ks.display_name AS name, (k.end - k.start) AS duration
          FROM "rocpd_kernel_dispatch" k
          JOIN "rocpd_info_kernel_symbol" ks ON ks.id = k.kernel_id
        UNION ALL
        SELECT s.string AS name, (m.end - m.start) AS duration
          FROM "rocpd_memory_copy" m
          JOIN "rocpd_string" s ON s.id = m.name_id
        UNION ALL
        SELECT s.string AS name, (r.end - r.start) AS duration
          FROM "rocpd_region" r
          JOIN "rocpd_string" s ON s.id = r.name_id) operations
 CROSS JOIN (SELECT SUM("end" - start) AS total_time
               FROM (SELECT "end", start FROM "rocpd_kernel_dispatch"
                     UNION ALL
                     SELECT "end", start FROM "rocpd_memory_copy"
                     UNION ALL
                     SELECT "end", start FROM "rocpd_region")) total
 GROUP BY name
 ORDER BY total_duration DESC
;
CREATE VIEW "kernel_summary" AS
{{summary:name:"kernels"}}
;
CREATE VIEW "kernel_summary_region" AS
{{summary:region:"kernels"}}
;
CREATE VIEW "memory_copy_summary" AS
{{summary:name:"memory_copies"}}
;
CREATE VIEW "memory_allocation_summary" AS
{{summary:type:"memory_allocations"}}
;
