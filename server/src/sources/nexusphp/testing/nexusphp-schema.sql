-- NexusPHP's tables as the connector reads them, for tests and benchmarks.
-- Written from NexusPHP's install SQL and its own migrations (1.7+/1.8): column names and
-- types, binary hashes, enum('yes','no'), DATETIMEs in the site's local time (nullable: old rows hold
-- NULL or '0000-00-00 00:00:00'), unique keys. Columns the connector does not read are kept where a
-- real install has them (passkey, offsets, hit_and_run_id, …) to prove it tolerates extra columns.
-- peers.finishedat is an unsigned INT of epoch seconds (0 = never) in NexusPHP, not a DATETIME.
-- Some older versions lack peers.prev_action; tests drop it to prove the connector copes.

CREATE TABLE users (
  id int unsigned NOT NULL AUTO_INCREMENT,
  username varchar(40) NOT NULL DEFAULT '',
  passhash varchar(32) NOT NULL DEFAULT '',
  email varchar(80) NOT NULL DEFAULT '',
  status enum('pending','confirmed') NOT NULL DEFAULT 'pending',
  added datetime DEFAULT NULL,
  last_login datetime DEFAULT NULL,
  last_access datetime DEFAULT NULL,
  class tinyint unsigned NOT NULL DEFAULT '1',
  uploaded bigint unsigned NOT NULL DEFAULT '0',
  downloaded bigint unsigned NOT NULL DEFAULT '0',
  seedbonus decimal(20,1) NOT NULL DEFAULT '0.0',
  bonuscomment text,
  enabled enum('yes','no') NOT NULL DEFAULT 'yes',
  passkey varchar(32) NOT NULL DEFAULT '',
  PRIMARY KEY (id),
  UNIQUE KEY username (username),
  KEY last_access (last_access),
  KEY enabled (enabled)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE teams (
  id int unsigned NOT NULL AUTO_INCREMENT,
  name varchar(30) NOT NULL DEFAULT '',
  sort_index tinyint unsigned NOT NULL DEFAULT '0',
  mode int NOT NULL DEFAULT '0',
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE categories (
  id smallint unsigned NOT NULL AUTO_INCREMENT,
  mode tinyint unsigned NOT NULL DEFAULT '1',
  class_name varchar(255) NOT NULL DEFAULT '',
  name varchar(30) NOT NULL DEFAULT '',
  image varchar(255) NOT NULL DEFAULT '',
  sort_index smallint unsigned NOT NULL DEFAULT '0',
  icon_id int NOT NULL DEFAULT '0',
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE tags (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  name varchar(255) NOT NULL,
  color varchar(255) NOT NULL DEFAULT '',
  priority int NOT NULL DEFAULT '0',
  created_at timestamp NULL DEFAULT NULL,
  updated_at timestamp NULL DEFAULT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE torrents (
  id mediumint unsigned NOT NULL AUTO_INCREMENT,
  info_hash binary(20) NOT NULL,
  name varchar(255) NOT NULL DEFAULT '',
  filename varchar(255) NOT NULL DEFAULT '',
  descr text,
  small_descr varchar(255) NOT NULL DEFAULT '',
  category smallint unsigned NOT NULL DEFAULT '0',
  team tinyint unsigned NOT NULL DEFAULT '0',
  size bigint unsigned NOT NULL DEFAULT '0',
  added datetime DEFAULT NULL,
  numfiles smallint unsigned NOT NULL DEFAULT '0',
  times_completed mediumint unsigned NOT NULL DEFAULT '0',
  leechers mediumint unsigned NOT NULL DEFAULT '0',
  seeders mediumint unsigned NOT NULL DEFAULT '0',
  last_action datetime DEFAULT NULL,
  visible enum('yes','no') NOT NULL DEFAULT 'yes',
  banned enum('yes','no') NOT NULL DEFAULT 'no',
  owner mediumint unsigned NOT NULL DEFAULT '0',
  sp_state tinyint unsigned NOT NULL DEFAULT '1',
  pos_state varchar(32) NOT NULL DEFAULT 'normal',
  -- Torrent review (migration 2022_06_14_021936): 0 not reviewed, 1 allowed, 2 denied.
  approval_status int NOT NULL DEFAULT '0',
  PRIMARY KEY (id),
  UNIQUE KEY info_hash (info_hash),
  KEY owner (owner),
  KEY category_visible_banned (category, visible, banned)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE torrent_tags (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  torrent_id int NOT NULL,
  tag_id int NOT NULL,
  priority int NOT NULL DEFAULT '0',
  created_at timestamp NULL DEFAULT NULL,
  updated_at timestamp NULL DEFAULT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY torrent_tags_torrent_id_tag_id_unique (torrent_id, tag_id),
  KEY torrent_tags_tag_id_index (tag_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE peers (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  torrent mediumint unsigned NOT NULL DEFAULT '0',
  peer_id binary(20) NOT NULL,
  ip varchar(64) NOT NULL DEFAULT '',
  port smallint unsigned NOT NULL DEFAULT '0',
  uploaded bigint unsigned NOT NULL DEFAULT '0',
  downloaded bigint unsigned NOT NULL DEFAULT '0',
  to_go bigint unsigned NOT NULL DEFAULT '0',
  seeder enum('yes','no') NOT NULL DEFAULT 'no',
  started datetime DEFAULT NULL,
  last_action datetime DEFAULT NULL,
  prev_action datetime DEFAULT NULL,
  connectable enum('yes','no') NOT NULL DEFAULT 'yes',
  userid mediumint unsigned NOT NULL DEFAULT '0',
  agent varchar(60) NOT NULL DEFAULT '',
  finishedat int unsigned NOT NULL DEFAULT '0',
  downloadoffset bigint unsigned NOT NULL DEFAULT '0',
  uploadoffset bigint unsigned NOT NULL DEFAULT '0',
  passkey char(32) NOT NULL DEFAULT '',
  PRIMARY KEY (id),
  -- NexusPHP's 2023-04 migration: two users may announce one peer_id on one torrent.
  UNIQUE KEY peers_torrent_peer_id_userid_unique (torrent, peer_id, userid),
  KEY peers_peer_id_index (peer_id),
  KEY userid (userid),
  KEY last_action (last_action)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE snatched (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  torrentid mediumint unsigned NOT NULL DEFAULT '0',
  userid mediumint unsigned NOT NULL DEFAULT '0',
  ip varchar(64) NOT NULL DEFAULT '',
  port smallint unsigned NOT NULL DEFAULT '0',
  uploaded bigint unsigned NOT NULL DEFAULT '0',
  downloaded bigint unsigned NOT NULL DEFAULT '0',
  to_go bigint unsigned NOT NULL DEFAULT '0',
  seedtime int unsigned NOT NULL DEFAULT '0',
  leechtime int unsigned NOT NULL DEFAULT '0',
  last_action datetime DEFAULT NULL,
  startdat datetime DEFAULT NULL,
  completedat datetime DEFAULT NULL,
  finished enum('yes','no') NOT NULL DEFAULT 'no',
  hit_and_run_id bigint NOT NULL DEFAULT '0',
  PRIMARY KEY (id),
  UNIQUE KEY torrentid_userid (torrentid, userid),
  KEY userid (userid),
  KEY completedat (completedat)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE claims (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  uid int NOT NULL,
  torrent_id int NOT NULL,
  snatched_id int NOT NULL,
  seed_time_begin bigint NOT NULL DEFAULT '0',
  uploaded_begin bigint NOT NULL DEFAULT '0',
  last_settle_at datetime DEFAULT NULL,
  created_at timestamp NULL DEFAULT NULL,
  updated_at timestamp NULL DEFAULT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY claims_uid_torrent_id_unique (uid, torrent_id),
  KEY claims_torrent_id_index (torrent_id),
  KEY claims_snatched_id_index (snatched_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- NexusPHP's settings ('main.anninterthree' = the longest announce interval, seconds); the connector
-- only reads it, and copes without it.
CREATE TABLE settings (
  id int NOT NULL AUTO_INCREMENT,
  name varchar(255) NOT NULL DEFAULT '',
  value mediumtext,
  created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (id),
  UNIQUE KEY uniqe_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
