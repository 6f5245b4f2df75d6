// @ts-check
// The server's messages as the pages read them (docs/protocol.md), as types for the checker only:
// this module holds no code.

/**
 * A message in the catalogs' terms: its code and the parameters of its placeholders (docs/protocol.md,
 * Messages); `text`, `message`, `reason` or `detail` carry the server's English beside it.
 * @typedef {{ code: string, [param: string]: unknown }} Said
 */

/**
 * A move of the round's log: `text` is its English, the rest is a message.
 * @typedef {Said & { seat: number | null, move: string, text?: string }} LogEntry
 */

/**
 * The rule options the pages draw with (the server sends them all).
 * @typedef {{ hub_arms: number, toes: number, double_blank_points: number, max_pip: number, [option: string]: unknown }} Rules
 */

/** @typedef {{ reason: "domino" | "blocked", hands: string[][], points: number[] }} RoundOver */

/** @typedef {{ winners: number[], explanation: string, why?: Said }} MatchOver */

/**
 * What one connection is told of its table, per version (docs/protocol.md, STATE).
 * @typedef {object} State
 * @property {string} code
 * @property {"waiting" | "playing" | "finished"} status
 * @property {boolean} [open]
 * @property {boolean} [public]
 * @property {number} [creator]
 * @property {number | null} [turn_deadline]
 * @property {Pace | null} [pace]
 * @property {(number[] | null)[]} [away]
 * @property {boolean[]} [replaced]
 * @property {number | null} [lost_on_time]
 * @property {number[]} [free_seats]
 * @property {boolean[]} [ready]
 * @property {(number | null)[]} [grace]
 * @property {number} [spectators]
 * @property {number} [devices]
 * @property {{ reason: string }} [watching]
 * @property {number | null} seat
 * @property {number} players
 * @property {(string | null)[]} names
 * @property {string[]} kinds
 * @property {(string | null)[]} [bots]
 * @property {boolean[]} [bot_accounts]
 * @property {number[]} [deleted]
 * @property {boolean[]} connected
 * @property {boolean[]} [covered]
 * @property {boolean[]} [left]
 * @property {Rules} rules
 * @property {number} round
 * @property {number} rounds
 * @property {number} start_double
 * @property {string[]} hand
 * @property {[string, string | null][]} layout
 * @property {[string, number][]} open_ends
 * @property {"empty" | "hub" | "foot" | "open"} phase
 * @property {string | null} foot
 * @property {number} boneyard
 * @property {number[]} hand_sizes
 * @property {number} to_move
 * @property {string | null} drawn
 * @property {string[]} legal
 * @property {"draw" | "pass" | null} [forced]
 * @property {number} [log_from]
 * @property {LogEntry[]} log
 * @property {RoundOver | null} round_over
 * @property {number[][]} scores
 * @property {number[]} totals
 * @property {MatchOver | null} match_over
 */

/** A turn-based table's pace: seconds per move, and what happens when they run out. @typedef {{ move_seconds: number, on_timeout: "move" | "replace" | "lose" }} Pace */

/** @typedef {Said & { kind: string, seat?: number | null, move?: string }} GameEvent */

/** A chat line: a player's `text`, or a quick reaction's `code`, and when it was said (`at`, seconds since the epoch). @typedef {{ n: number, seat: number | null, spectator: boolean, at?: number, text?: string, code?: string }} ChatLine */

/** @typedef {{ type: "chat", lines?: ChatLine[], line?: ChatLine }} ChatMessage */

/** Who accepted a rematch, who is awaited, and its table once made. @typedef {{ accepted: number[], waiting: number[], code: string | null }} RematchMessage */

/** The rematches before this match and each seat's wins among them. @typedef {{ played: number, wins: number[], previous: string }} SeriesMessage */

/** The operators muted the reader in chat until `moment` (an instant), or lifted the mute (`moment: null`). @typedef {Said & { moment: string | null }} MuteMessage */

/** @typedef {{ seat: number, before: number, after: number, delta: number, provisional: boolean }} RatingChange */

/** @typedef {{ code: string, changes: RatingChange[] }} RatingMessage */

/** A suggested move, and why (a message). @typedef {Said & { move: string }} HintMessage */

/** The connection's state: up, or lost and retried at `retryAt` (ms since the epoch). @typedef {{ up: true } | { up: false, attempt: number, retryAt: number }} ConnectionStatus */

/** An invite link this browser keeps for a seat of a table it created. @typedef {{ seat: number, invite: string }} Invite */

/**
 * The signed-in account (GET /api/account).
 * @typedef {object} Account
 * @property {string} username
 * @property {boolean} [bot] a bot account: it plays through the Bot API, with API tokens
 * @property {string} created
 * @property {boolean} password
 * @property {{ id: string, label: string, created: string, last_used: string | null }[]} passkeys
 * @property {string} [csrf]
 */

/**
 * A line of the bell's list (GET /api/notifications), worded in the page's language.
 * @typedef {object} Notice
 * @property {number} id
 * @property {string} kind
 * @property {string | null} table (none: a challenge, whose table is made when it is accepted)
 * @property {string} url the page it opens
 * @property {string} text
 * @property {string | null} detail
 * @property {string} at
 * @property {boolean} read
 */

/** The bell's list: how many are unread, the newest, the language push and e-mail are written in. @typedef {{ unread: number, language: string, notices: Notice[] }} NoticeList */

/**
 * The account's notification settings (GET /api/notifications/settings).
 * @typedef {object} NotificationSettings
 * @property {Record<string, string[]>} choices each kind of notice and the channels it goes to
 * @property {number | null} quiet_from minutes after midnight
 * @property {number | null} quiet_until
 * @property {string} time_zone
 * @property {string} language
 * @property {{ address: string | null, pending: string | null, available: boolean }} email
 * @property {{ key: string | null, devices: number }} push
 */

export {};
