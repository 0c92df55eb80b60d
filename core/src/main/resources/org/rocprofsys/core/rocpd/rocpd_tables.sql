-- The rocpd tables, schema version 3 (rocprofiler-sdk's rocpd_tables.sql column lists; inventory
-- section 11). {{uuid}} is the run's table suffix, {{guid}} its guid; RocpdSchema fills them in.
-- Statements are separated by a line holding only ';'.

CREATE TABLE "rocpd_metadata{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tag" TEXT NOT NULL,
    "value" TEXT NOT NULL
)
;
CREATE TABLE "rocpd_string{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "string" TEXT NOT NULL UNIQUE ON CONFLICT ABORT
)
;
CREATE TABLE "rocpd_info_node{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "hash" BIGINT NOT NULL UNIQUE,
    "machine_id" TEXT NOT NULL UNIQUE,
    "system_name" TEXT,
    "hostname" TEXT,
    "release" TEXT,
    "version" TEXT,
    "hardware_name" TEXT,
    "domain_name" TEXT
)
;
CREATE TABLE "rocpd_info_process{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "ppid" INTEGER,
    "pid" INTEGER NOT NULL,
    "init" BIGINT,
    "fini" BIGINT,
    "start" BIGINT,
    "end" BIGINT,
    "command" TEXT,
    "environment" JSONB NOT NULL DEFAULT '{}',
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_info_thread{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "ppid" INTEGER,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER NOT NULL,
    "name" TEXT,
    "start" BIGINT,
    "end" BIGINT,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_info_agent{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "type" TEXT CHECK ("type" IN ('CPU', 'GPU', 'NIC')),
    "absolute_index" INTEGER,
    "logical_index" INTEGER,
    "type_index" INTEGER,
    "uuid" INTEGER,
    "name" TEXT,
    "model_name" TEXT,
    "vendor_name" TEXT,
    "product_name" TEXT,
    "user_name" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_info_queue{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "name" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_info_stream{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "name" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_info_pmc{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "target_arch" TEXT CHECK ("target_arch" IN ('CPU', 'GPU', 'NIC')),
    "event_code" INT,
    "instance_id" INTEGER,
    "name" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "description" TEXT,
    "long_description" TEXT DEFAULT '',
    "component" TEXT,
    "units" TEXT DEFAULT '',
    "value_type" TEXT CHECK ("value_type" IN ('ABS', 'ACCUM', 'RELATIVE')),
    "block" TEXT,
    "expression" TEXT,
    "is_constant" INTEGER,
    "is_derived" INTEGER,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_info_code_object{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "uri" TEXT,
    "load_base" BIGINT,
    "load_size" BIGINT,
    "load_delta" BIGINT,
    "storage_type" TEXT CHECK ("storage_type" IN ('FILE', 'MEMORY')),
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_info_kernel_symbol{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "code_object_id" INTEGER NOT NULL REFERENCES "rocpd_info_code_object{{uuid}}" ("id") ON UPDATE CASCADE,
    "kernel_name" TEXT,
    "display_name" TEXT,
    "kernel_object" INTEGER,
    "kernarg_segment_size" INTEGER,
    "kernarg_segment_alignment" INTEGER,
    "group_segment_size" INTEGER,
    "private_segment_size" INTEGER,
    "sgpr_count" INTEGER,
    "arch_vgpr_count" INTEGER,
    "accum_vgpr_count" INTEGER,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_track{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "name_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_event{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "category_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "stack_id" INTEGER,
    "parent_stack_id" INTEGER,
    "correlation_id" INTEGER,
    "call_stack" JSONB NOT NULL DEFAULT '{}',
    "line_info" JSONB NOT NULL DEFAULT '{}',
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_arg{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "event_id" INTEGER NOT NULL REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "position" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_pmc_event{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "pmc_id" INTEGER NOT NULL REFERENCES "rocpd_info_pmc{{uuid}}" ("id") ON UPDATE CASCADE,
    "value" REAL DEFAULT 0.0,
    "extdata" JSONB DEFAULT '{}'
)
;
CREATE TABLE "rocpd_region{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER NOT NULL REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "start" BIGINT NOT NULL,
    "end" BIGINT NOT NULL,
    "name_id" INTEGER NOT NULL REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_sample{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "track_id" INTEGER NOT NULL REFERENCES "rocpd_track{{uuid}}" ("id") ON UPDATE CASCADE,
    "timestamp" BIGINT NOT NULL,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_kernel_dispatch{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER NOT NULL REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "kernel_id" INTEGER NOT NULL REFERENCES "rocpd_info_kernel_symbol{{uuid}}" ("id") ON UPDATE CASCADE,
    "dispatch_id" INTEGER NOT NULL,
    "queue_id" INTEGER NOT NULL REFERENCES "rocpd_info_queue{{uuid}}" ("id") ON UPDATE CASCADE,
    "stream_id" INTEGER NOT NULL REFERENCES "rocpd_info_stream{{uuid}}" ("id") ON UPDATE CASCADE,
    "start" BIGINT NOT NULL,
    "end" BIGINT NOT NULL,
    "private_segment_size" INTEGER,
    "group_segment_size" INTEGER,
    "workgroup_size_x" INTEGER NOT NULL,
    "workgroup_size_y" INTEGER NOT NULL,
    "workgroup_size_z" INTEGER NOT NULL,
    "grid_size_x" INTEGER NOT NULL,
    "grid_size_y" INTEGER NOT NULL,
    "grid_size_z" INTEGER NOT NULL,
    "region_name_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_memory_copy{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "start" BIGINT NOT NULL,
    "end" BIGINT NOT NULL,
    "name_id" INTEGER NOT NULL REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "dst_agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "dst_address" INTEGER,
    "src_agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "src_address" INTEGER,
    "size" INTEGER NOT NULL,
    "queue_id" INTEGER REFERENCES "rocpd_info_queue{{uuid}}" ("id") ON UPDATE CASCADE,
    "stream_id" INTEGER REFERENCES "rocpd_info_stream{{uuid}}" ("id") ON UPDATE CASCADE,
    "region_name_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
CREATE TABLE "rocpd_memory_allocate{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "type" TEXT CHECK ("type" IN ('ALLOC', 'FREE', 'REALLOC', 'RECLAIM')),
    "level" TEXT CHECK ("level" IN ('REAL', 'VIRTUAL', 'SCRATCH')),
    "start" BIGINT NOT NULL,
    "end" BIGINT NOT NULL,
    "address" INTEGER,
    "size" INTEGER NOT NULL,
    "queue_id" INTEGER REFERENCES "rocpd_info_queue{{uuid}}" ("id") ON UPDATE CASCADE,
    "stream_id" INTEGER REFERENCES "rocpd_info_stream{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}'
)
;
