/**
 * Names that look like a Chinese PT site: usernames mixing pinyin, latin handles and Chinese
 * nicknames; torrent names in scene style with year, resolution, source, codec and a release
 * group. Teams, titles and artists are made up.
 * Long by design: nearly all of it is word lists, each next to the small function that draws from it.
 */
import type { Prng } from './prng'

export interface DemoTeam {
  name: string
  /** Share of the site's torrents released by this team. */
  weight: number
  official: boolean
  /** What the team releases most. */
  kinds: TorrentKind[]
}

export const demoTeams: DemoTeam[] = [
  { name: 'CedarHD', weight: 9, official: true, kinds: ['movie', 'movie', 'tv', 'documentary'] },
  { name: 'LotusWeb', weight: 8, official: true, kinds: ['tv', 'tv', 'movie', 'variety'] },
  { name: 'JadeRip', weight: 5, official: true, kinds: ['movie', 'documentary', 'anime'] },
  { name: 'MistyBay', weight: 7, official: false, kinds: ['movie', 'tv'] },
  { name: 'AzureDisc', weight: 5, official: false, kinds: ['movie', 'documentary'] },
  { name: 'RedLantern', weight: 6, official: false, kinds: ['tv', 'variety'] },
  { name: 'OakAudio', weight: 4, official: false, kinds: ['music'] },
  { name: 'BambooSub', weight: 5, official: false, kinds: ['anime', 'tv'] },
  { name: 'IronKite', weight: 4, official: false, kinds: ['sports', 'movie'] },
  { name: 'NorthPeak', weight: 4, official: false, kinds: ['movie', 'tv'] },
  { name: 'PolarWave', weight: 3, official: false, kinds: ['music', 'documentary'] },
  { name: 'SilkReel', weight: 4, official: false, kinds: ['movie', 'anime'] },
]
/** Share of torrents without a release group (user uploads). */
export const NO_TEAM_WEIGHT = 26

export const demoTags = ['官方', '国语', '中字', 'DIY', '完结', '禁转', '首发', '杜比视界']
export const officialDemoTags = ['官方']

export type TorrentKind = 'movie' | 'tv' | 'documentary' | 'anime' | 'music' | 'variety' | 'sports'

export const demoCategories: { name: string; kind: TorrentKind }[] = [
  { name: '电影', kind: 'movie' },
  { name: '剧集', kind: 'tv' },
  { name: '纪录片', kind: 'documentary' },
  { name: '动漫', kind: 'anime' },
  { name: '音乐', kind: 'music' },
  { name: '综艺', kind: 'variety' },
  { name: '体育', kind: 'sports' },
]

/** Median size (GiB) and spread of each kind; sizes are log-normal, clamped to 200 MiB – 80 GiB. */
export const sizeProfile: Record<TorrentKind, { medianGiB: number; sigma: number }> = {
  movie: { medianGiB: 9, sigma: 0.9 },
  tv: { medianGiB: 14, sigma: 1.0 },
  documentary: { medianGiB: 7, sigma: 0.9 },
  anime: { medianGiB: 6, sigma: 1.0 },
  music: { medianGiB: 0.9, sigma: 0.8 },
  variety: { medianGiB: 3, sigma: 0.8 },
  sports: { medianGiB: 5, sigma: 0.7 },
}

// ---------------------------------------------------------------- usernames

const surnames = [
  'wang',
  'li',
  'zhang',
  'liu',
  'chen',
  'yang',
  'huang',
  'zhao',
  'wu',
  'zhou',
  'xu',
  'sun',
  'ma',
  'zhu',
  'hu',
  'guo',
  'he',
  'lin',
  'luo',
  'gao',
  'zheng',
  'song',
  'tang',
  'han',
  'feng',
  'deng',
  'peng',
  'xiao',
  'tian',
]
const givenNames = [
  'wei',
  'fang',
  'na',
  'min',
  'jing',
  'lei',
  'yang',
  'jun',
  'tao',
  'peng',
  'hao',
  'yu',
  'xin',
  'yi',
  'chen',
  'kai',
  'bo',
  'qiang',
  'hui',
  'ying',
  'long',
  'fei',
  'xiaoming',
  'jiajia',
  'zihan',
  'haoran',
  'yuxuan',
  'mengyao',
  'tingting',
  'shuai',
]
const handleAdjectives = [
  'dark',
  'silent',
  'lazy',
  'happy',
  'lucky',
  'blue',
  'red',
  'wild',
  'cold',
  'swift',
  'tiny',
  'old',
  'night',
  'iron',
  'quiet',
  'sleepy',
  'crazy',
  'super',
  'mega',
  'lone',
]
const handleNouns = [
  'star',
  'wolf',
  'cat',
  'owl',
  'river',
  'seed',
  'byte',
  'fox',
  'panda',
  'moon',
  'cloud',
  'tiger',
  'keeper',
  'drifter',
  'rider',
  'bird',
  'leaf',
  'stone',
  'whale',
  'ghost',
]
const zhAdjectives = [
  '风中的',
  '快乐的',
  '孤独的',
  '沉默的',
  '爱睡觉的',
  '会飞的',
  '迷路的',
  '路过的',
  '不睡觉的',
  '发呆的',
  '勤劳的',
  '佛系的',
]
const zhNouns = ['蒲公英', '小熊', '鲸鱼', '猫', '兔子', '蜗牛', '咸鱼', '老狗', '企鹅', '旅人', '仓鼠', '考拉', '种子', '硬盘']
const zhNicknames = [
  '北极星',
  '夜猫子',
  '老猫',
  '阿飞',
  '小白',
  '大熊',
  '不二',
  '青柠',
  '半夏',
  '南风',
  '星野',
  '橘子汽水',
  '山河',
  '追光者',
  '一粒沙',
  '云深',
  '晚风',
  '铁锅',
  '小满',
  '拾光',
]

export function username(rng: Prng): string {
  const style = rng.next()
  if (style < 0.32) {
    const base = rng.pick(surnames) + rng.pick(['', '_', '.', '']) + rng.pick(givenNames)
    return base + (rng.chance(0.6) ? String(rng.chance(0.5) ? rng.int(1975, 2006) : rng.int(1, 999)) : '')
  }
  if (style < 0.62) {
    const adjective = rng.pick(handleAdjectives)
    const noun = rng.pick(handleNouns)
    const joined = rng.chance(0.4)
      ? adjective + noun[0].toUpperCase() + noun.slice(1)
      : rng.chance(0.5)
        ? `${adjective}_${noun}`
        : adjective + noun
    const cased = rng.chance(0.25) ? joined[0].toUpperCase() + joined.slice(1) : joined
    return cased + (rng.chance(0.45) ? String(rng.int(1, 99)).padStart(2, '0') : '')
  }
  if (style < 0.8) return rng.pick(zhAdjectives) + rng.pick(zhNouns)
  if (style < 0.94) return rng.pick(zhNicknames) + (rng.chance(0.5) ? String(rng.int(1, 999)) : '')
  return rng.pick(['seedbox_', 'pt', 'hd', 'bt_']) + rng.pick(givenNames) + (rng.chance(0.5) ? String(rng.int(1, 99)) : '')
}

// ---------------------------------------------------------------- torrent names

const titleAdjectives = [
  'Silent',
  'Last',
  'Crimson',
  'Hidden',
  'Broken',
  'Golden',
  'Distant',
  'Eternal',
  'Frozen',
  'Burning',
  'Lost',
  'Wandering',
  'Midnight',
  'Quiet',
  'Savage',
  'Northern',
  'Iron',
  'Paper',
  'Glass',
  'Velvet',
  'Secret',
  'Wild',
  'Bright',
  'Fallen',
]
const titleNouns = [
  'Harbor',
  'Kingdom',
  'River',
  'Mountain',
  'Summer',
  'Winter',
  'Garden',
  'Empire',
  'Frontier',
  'Promise',
  'Horizon',
  'Echo',
  'Shadow',
  'Voyage',
  'Letters',
  'Island',
  'Detective',
  'Orchard',
  'Signal',
  'Lantern',
  'Station',
  'Dynasty',
  'Witness',
  'Tide',
]
const zhTitleWords = [
  '长安',
  '江南',
  '风起',
  '山海',
  '云上',
  '星河',
  '故乡',
  '少年',
  '人间',
  '烟火',
  '潮汐',
  '远方',
  '边城',
  '长夜',
  '白鹿',
  '雪国',
  '南方',
  '孤城',
  '天涯',
  '归途',
  '繁花',
  '问心',
  '大江',
  '春山',
]
const zhTitleSuffixes = ['', '', '传', '往事', '之歌', '纪事', '笔记', '来信', '2']
const natureWords = [
  'Planet',
  'Ocean',
  'Wild China',
  'Frozen Planet',
  'Seasons',
  'Deep Sea',
  'Great Rivers',
  'Mountains',
  'Islands',
  'Grasslands',
  'Desert',
  'Forest',
]
const artists = [
  'Lin Xiao',
  'The Paper Kites',
  'Chen Yi',
  'Blue Harbor',
  'Moonlight Trio',
  'Zhou Yun',
  'Northern Lights',
  'Echo Valley',
  'Han Mei',
  'Velvet Road',
  'Golden Orchard',
  'Su Qing',
]
const albumWords = [
  'Dreams',
  'Live in Shanghai',
  'Greatest Hits',
  'Winter Songs',
  'Unplugged',
  'Midnight Tapes',
  'Rivers',
  'Homecoming',
  'Echoes',
  'Collected Works',
  'Best of',
  'Lights',
]
const sportsEvents = [
  'NBA.Finals',
  'Premier.League',
  'UEFA.Champions.League',
  'CBA.Playoffs',
  'F1.Grand.Prix',
  'World.Cup.Qualifiers',
  'Wimbledon',
  'Olympic.Games',
]

const resolutions = ['720p', '1080p', '1080p', '1080p', '2160p', '2160p']
const sources = ['BluRay', 'BluRay', 'WEB-DL', 'WEB-DL', 'Remux', 'HDTV', 'UHD.BluRay']
const videoCodecs = ['x264', 'x265', 'H.264', 'H.265', 'HEVC', 'AVC']
const audioCodecs = ['DTS-HD.MA.5.1', 'TrueHD.7.1.Atmos', 'AAC', 'DD5.1', 'FLAC.2.0', 'DDP5.1', 'LPCM.2.0']

function englishTitle(rng: Prng): string {
  const shape = rng.next()
  if (shape < 0.45) return `${rng.chance(0.35) ? 'The ' : ''}${rng.pick(titleAdjectives)} ${rng.pick(titleNouns)}`
  if (shape < 0.7) return `The ${rng.pick(titleNouns)} of ${rng.pick(titleNouns)}`
  if (shape < 0.85) return `${rng.pick(titleAdjectives)} ${rng.pick(titleNouns)} ${rng.int(2, 4)}`
  return rng.pick(titleNouns)
}

function chineseTitle(rng: Prng): string {
  const a = rng.pick(zhTitleWords)
  let b = rng.pick(zhTitleWords)
  while (b === a) b = rng.pick(zhTitleWords)
  return a + b + rng.pick(zhTitleSuffixes)
}

const dotted = (text: string) => text.replace(/\s+/g, '.')

export function torrentName(rng: Prng, kind: TorrentKind, year: number, group: string | null): string {
  const tail = group ? `-${group}` : ''
  const video = () => `${rng.pick(resolutions)}.${rng.pick(sources)}.${rng.pick(videoCodecs)}.${rng.pick(audioCodecs)}`
  const zhPrefix = () => (rng.chance(0.3) ? `${chineseTitle(rng)} ` : '')
  switch (kind) {
    case 'movie':
      return `${zhPrefix()}${dotted(englishTitle(rng))}.${year}.${video()}${tail}`
    case 'tv': {
      const season = `S${String(rng.int(1, 6)).padStart(2, '0')}`
      const episodes = rng.chance(0.3) ? `E${String(rng.int(1, 8)).padStart(2, '0')}` : ''
      return `${zhPrefix()}${dotted(englishTitle(rng))}.${season}${episodes}.${year}.${video()}${tail}`
    }
    case 'documentary':
      return `${dotted(rng.pick(natureWords))}.${rng.chance(0.5) ? `S0${rng.int(1, 3)}.` : ''}${year}.${video()}${tail}`
    case 'anime':
      return `[${group ?? rng.pick(['VCB-Studio', 'Sakurato', 'LoliHouse'])}] ${englishTitle(rng)} (${year}) [BDRip ${rng.pick(['1080p', '2160p'])} ${rng.pick(['HEVC-10bit', 'AVC'])} FLAC]`
    case 'music':
      return `${rng.pick(artists)} - ${rng.pick(albumWords)} (${year}) [${rng.pick(['FLAC', 'FLAC 24bit-96kHz', 'FLAC 24bit-192kHz', 'DSD64', 'WAV'])}]${tail}`
    case 'variety':
      return `${chineseTitle(rng)} ${year} ${rng.pick(['第一季', '第二季', '第三季', '全集'])} ${rng.pick(['1080p', '2160p'])}.WEB-DL.H264.AAC${tail}`
    case 'sports':
      return `${rng.pick(sportsEvents)}.${year}.${rng.pick(['Game.7', 'Final', 'Round.12', 'Semi.Final', 'Highlights'])}.${rng.pick(['1080p', '720p'])}.HDTV.x264${tail}`
  }
}

export const clientAgents = [
  'qBittorrent/4.6.7',
  'qBittorrent/5.0.2',
  'Transmission/4.0.6',
  'Deluge 2.1.1',
  'μTorrent/3.6.0',
  'libtorrent/2.0.10',
]
