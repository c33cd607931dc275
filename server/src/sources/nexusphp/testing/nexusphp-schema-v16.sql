-- NexusPHP's tables in the shape of a site installed from v1.6 (`_db/dbstructure_v1.6.sql`) and upgraded
-- in place: the install's own tables keep their engines — users, teams, categories, torrents, snatched and
-- settings MyISAM, peers MEMORY with HASH indexes (table-level locks: a long read blocks the tracker's
-- UPDATEs, so the connector must read in short windows) — and their v1.6 column types and keys (peers' ids are int, snatched's id signed,
-- its (torrentid, userid) key not unique, no index on any last_action); the tables later versions added
-- (tags, torrent_tags, claims) are created by Laravel's migrations, InnoDB, which also add their columns to the
-- install's tables (torrents.approval_status).
-- The other shape, a migrated InnoDB install, is nexusphp-schema.sql. The subset of columns kept is the one
-- the connector reads plus a few it must tolerate.

-- A MEMORY table holds at most max_heap_table_size bytes, fixed when it is created (a real site raises it too).
SET SESSION max_heap_table_size = 1073741824;

CREATE TABLE users (
  id int(10) unsigned NOT NULL AUTO_INCREMENT,
  username varchar(40) NOT NULL DEFAULT '',
  passhash varchar(32) NOT NULL DEFAULT '',
  email varchar(80) NOT NULL DEFAULT '',
  status enum('pending','confirmed') NOT NULL DEFAULT 'pending',
  added datetime DEFAULT NULL,
  last_login datetime DEFAULT NULL,
  last_access datetime DEFAULT NULL,
  ip varchar(64) NOT NULL DEFAULT '',
  class tinyint(3) unsigned NOT NULL DEFAULT '1',
  uploaded bigint(20) unsigned NOT NULL DEFAULT '0',
  downloaded bigint(20) unsigned NOT NULL DEFAULT '0',
  seedtime bigint(20) unsigned NOT NULL DEFAULT '0',
  leechtime bigint(20) unsigned NOT NULL DEFAULT '0',
  enabled enum('yes','no') NOT NULL DEFAULT 'yes',
  passkey varchar(32) NOT NULL DEFAULT '',
  seedbonus decimal(10,1) NOT NULL DEFAULT '0.0',
  bonuscomment text,
  PRIMARY KEY (id),
  UNIQUE KEY username (username),
  KEY status_added (status, added),
  KEY ip (ip),
  KEY uploaded (uploaded),
  KEY downloaded (downloaded),
  KEY last_access (last_access),
  KEY enabled (enabled),
  KEY class (class),
  KEY passkey (passkey(8))
) ENGINE=MyISAM DEFAULT CHARSET=utf8;

CREATE TABLE teams (
  id tinyint(3) unsigned NOT NULL AUTO_INCREMENT,
  name varchar(30) NOT NULL DEFAULT '',
  sort_index tinyint(3) unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (id)
) ENGINE=MyISAM DEFAULT CHARSET=utf8;

CREATE TABLE categories (
  id smallint(5) unsigned NOT NULL AUTO_INCREMENT,
  mode tinyint(3) unsigned NOT NULL DEFAULT '1',
  class_name varchar(255) NOT NULL DEFAULT '',
  name varchar(30) NOT NULL DEFAULT '',
  image varchar(255) NOT NULL DEFAULT '',
  sort_index smallint(5) unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (id),
  KEY mode_sort (mode, sort_index)
) ENGINE=MyISAM DEFAULT CHARSET=utf8;

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
  id mediumint(8) unsigned NOT NULL AUTO_INCREMENT,
  info_hash binary(20) NOT NULL,
  name varchar(255) NOT NULL DEFAULT '',
  filename varchar(255) NOT NULL DEFAULT '',
  save_as varchar(255) NOT NULL DEFAULT '',
  descr text,
  small_descr varchar(255) NOT NULL DEFAULT '',
  category smallint(5) unsigned NOT NULL DEFAULT '0',
  source tinyint(3) unsigned NOT NULL DEFAULT '0',
  medium tinyint(3) unsigned NOT NULL DEFAULT '0',
  team tinyint(3) unsigned NOT NULL DEFAULT '0',
  size bigint(20) unsigned NOT NULL DEFAULT '0',
  added datetime DEFAULT NULL,
  type enum('single','multi') NOT NULL DEFAULT 'single',
  numfiles smallint(5) unsigned NOT NULL DEFAULT '0',
  comments mediumint(8) unsigned NOT NULL DEFAULT '0',
  hits int(10) unsigned NOT NULL DEFAULT '0',
  times_completed mediumint(8) unsigned NOT NULL DEFAULT '0',
  leechers mediumint(8) unsigned NOT NULL DEFAULT '0',
  seeders mediumint(8) unsigned NOT NULL DEFAULT '0',
  last_action datetime DEFAULT NULL,
  visible enum('yes','no') NOT NULL DEFAULT 'yes',
  banned enum('yes','no') NOT NULL DEFAULT 'no',
  owner mediumint(8) unsigned NOT NULL DEFAULT '0',
  sp_state tinyint(3) unsigned NOT NULL DEFAULT '1',
  anonymous enum('yes','no') NOT NULL DEFAULT 'no',
  url int(10) unsigned DEFAULT NULL,
  pos_state enum('normal','sticky') NOT NULL DEFAULT 'normal',
  -- Added to the MyISAM table by the upgrade's migration 2022_06_14_021936 (torrent review: 0 not reviewed,
  -- 1 allowed, 2 denied).
  approval_status int(11) NOT NULL DEFAULT '0',
  PRIMARY KEY (id),
  UNIQUE KEY info_hash (info_hash),
  KEY owner (owner),
  KEY visible_pos_id (visible, pos_state, id),
  KEY url (url),
  KEY category_visible_banned (category, visible, banned),
  KEY visible_banned_pos_id (visible, banned, pos_state, id),
  FULLTEXT KEY name (name)
) ENGINE=MyISAM DEFAULT CHARSET=utf8;

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

-- The tracker's live table: in memory, every index a hash (no ranges, no order).
CREATE TABLE peers (
  id int(10) unsigned NOT NULL AUTO_INCREMENT,
  torrent mediumint(8) unsigned NOT NULL DEFAULT '0',
  peer_id binary(20) NOT NULL,
  ip varchar(64) NOT NULL DEFAULT '',
  port smallint(5) unsigned NOT NULL DEFAULT '0',
  uploaded bigint(20) unsigned NOT NULL DEFAULT '0',
  downloaded bigint(20) unsigned NOT NULL DEFAULT '0',
  to_go bigint(20) unsigned NOT NULL DEFAULT '0',
  seeder enum('yes','no') NOT NULL DEFAULT 'no',
  started datetime DEFAULT NULL,
  last_action datetime DEFAULT NULL,
  prev_action datetime DEFAULT NULL,
  connectable enum('yes','no') NOT NULL DEFAULT 'yes',
  userid mediumint(8) unsigned NOT NULL DEFAULT '0',
  agent varchar(60) NOT NULL DEFAULT '',
  finishedat int(10) unsigned NOT NULL DEFAULT '0',
  downloadoffset bigint(20) unsigned NOT NULL DEFAULT '0',
  uploadoffset bigint(20) unsigned NOT NULL DEFAULT '0',
  passkey char(32) NOT NULL DEFAULT '',
  PRIMARY KEY (id) USING HASH,
  KEY userid (userid) USING HASH,
  KEY torrent (torrent) USING HASH
) ENGINE=MEMORY DEFAULT CHARSET=utf8;

CREATE TABLE snatched (
  id int(10) NOT NULL AUTO_INCREMENT,
  torrentid mediumint(8) unsigned NOT NULL DEFAULT '0',
  userid mediumint(8) unsigned NOT NULL DEFAULT '0',
  ip varchar(64) NOT NULL DEFAULT '',
  port smallint(5) unsigned NOT NULL DEFAULT '0',
  uploaded bigint(20) unsigned NOT NULL DEFAULT '0',
  downloaded bigint(20) unsigned NOT NULL DEFAULT '0',
  to_go bigint(20) unsigned NOT NULL DEFAULT '0',
  seedtime int(10) unsigned NOT NULL DEFAULT '0',
  leechtime int(10) unsigned NOT NULL DEFAULT '0',
  last_action datetime DEFAULT NULL,
  startdat datetime DEFAULT NULL,
  completedat datetime DEFAULT NULL,
  finished enum('yes','no') NOT NULL DEFAULT 'no',
  PRIMARY KEY (id),
  KEY torrentid_userid (torrentid, userid),
  KEY userid (userid)
) ENGINE=MyISAM DEFAULT CHARSET=utf8;

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

CREATE TABLE settings (
  id int(11) NOT NULL AUTO_INCREMENT,
  name varchar(255) NOT NULL DEFAULT '',
  value mediumtext,
  created_at datetime DEFAULT NULL,
  updated_at datetime DEFAULT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uniqe_name (name)
) ENGINE=MyISAM DEFAULT CHARSET=utf8;
