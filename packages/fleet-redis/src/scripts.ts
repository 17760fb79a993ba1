// The Lua scripts that make each FleetBackend operation one atomic step in Redis (a script runs with
// nothing else interleaved). Keys are passed in KEYS where the script knows them up front; the few it
// derives from stored values (a node's heartbeat and inbox, named by the connection's owner) are
// built from the prefix in ARGV, which is why the backend needs one Redis server, not a Cluster.
//
// One Redis stream entry holds one append: the messages of a batch joined by "\n" (a message is
// compact JSON, which never holds a raw newline), under the id "F-1" where F is the event id of
// its first message (events are numbered 1, 2, … per stream), with fields n (how many) and c (their
// characters, as JavaScript counts them). So an append is one XADD however many messages it
// carries, and an event id finds its entry without a lookup table. A list beside the stream keeps
// "F:n:c" per entry, for trimming without reading texts back. A stream's meta hash keeps: next
// (last event id appended), cursor (last id handed to a reader), first (oldest event id kept),
// unread and kept (characters after and up to the cursor), aepoch/aseq (the last append applied),
// ended (the reason, once ended).

/** ARGV: prefix, connectionId, message, dedupe key, pending key ('' for none), pending JSON. KEYS: conn, pending. */
export const FORWARD = `
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then return 'gone' end
if redis.call('EXISTS', ARGV[1] .. 'node:' .. owner) == 0 then return 'orphaned' end
if not redis.call('SET', ARGV[1] .. 'fwd:' .. ARGV[4], '1', 'NX', 'PX', 600000) then return 'sent' end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[2], ARGV[5], ARGV[6]) end
redis.call('XADD', ARGV[1] .. 'inbox:' .. owner, 'MAXLEN', '~', 100000, '*', 'c', ARGV[2], 'm', ARGV[3])
return 'sent'
`;

/**
 * KEYS: conn, stream, meta, pending, streams set, entry sizes. ARGV: owner, epoch, seq, stream name
 * (for the streams set), wake channel, message count, their characters, the messages joined by
 * "\n", answered keys…. Returns {fenced, unread}.
 */
export const APPEND = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[2] then return {1, 0} end
local epoch = tonumber(ARGV[2])
local seq = tonumber(ARGV[3])
local applied = tonumber(redis.call('HGET', KEYS[3], 'aepoch') or '-1')
local appliedSeq = tonumber(redis.call('HGET', KEYS[3], 'aseq') or '-1')
if not (applied == epoch and seq <= appliedSeq) then
  local count = tonumber(ARGV[6])
  local first = tonumber(redis.call('HGET', KEYS[3], 'next') or '0') + 1
  redis.call('XADD', KEYS[2], first .. '-1', 'n', ARGV[6], 'c', ARGV[7], 't', ARGV[8])
  redis.call('RPUSH', KEYS[6], first .. ':' .. ARGV[6] .. ':' .. ARGV[7])
  for i = 9, #ARGV do redis.call('HDEL', KEYS[4], ARGV[i]) end
  redis.call('HSET', KEYS[3], 'next', first + count - 1, 'aepoch', epoch, 'aseq', seq)
  redis.call('HINCRBY', KEYS[3], 'unread', ARGV[7])
  redis.call('SADD', KEYS[5], ARGV[4])
  redis.call('PUBLISH', ARGV[5], first + count - 1)
end
return {0, tonumber(redis.call('HGET', KEYS[3], 'unread') or '0')}
`;

/**
 * KEYS: stream, meta. ARGV: after, most entries. Returns {entries from the one holding event
 * after+1 on, ended or false}.
 */
export const READ = `
local want = tonumber(ARGV[1]) + 1
local start = want .. '-1'
local holder = redis.call('XREVRANGE', KEYS[1], want .. '-1', '-', 'COUNT', 1)[1]
if holder then
  local first = tonumber(string.match(holder[1], '^(%d+)'))
  if first + tonumber(holder[2][2]) - 1 >= want then start = holder[1] end
end
return {redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', ARGV[2]), redis.call('HGET', KEYS[2], 'ended')}
`;

/** KEYS: conn, meta, reader, streams set. ARGV: holder, lease ms, last event id ('' for none), stream name, most streams. */
export const OPEN_READER = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
if redis.call('SISMEMBER', KEYS[4], ARGV[4]) == 0 and redis.call('SCARD', KEYS[4]) >= tonumber(ARGV[5]) then return {'full'} end
local holder = redis.call('GET', KEYS[3])
if holder and holder ~= ARGV[1] then return {'busy'} end
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[4], ARGV[4])
local cursor = tonumber(redis.call('HGET', KEYS[2], 'cursor') or '0')
if ARGV[3] == '' then return {'ok', cursor} end
local last = tonumber(ARGV[3])
if last >= cursor or last < 0 then return {'ok', cursor} end
local first = tonumber(redis.call('HGET', KEYS[2], 'first') or '1')
if last + 1 < first then return {'ok', last, last + 1, first - 1} end
return {'ok', last}
`;

/** KEYS: reader. ARGV: holder, lease ms. */
export const RENEW_READER = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** KEYS: reader. ARGV: holder. */
export const RELEASE_READER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;

/**
 * KEYS: stream, meta, reader, entry sizes. ARGV: holder, id, characters handed, max events kept,
 * max characters kept. Moves the cursor to id, then drops whole entries from the front while they
 * were handed out and what stays still holds the window (at least maxEvents events, or all of them
 * while within maxChars); unread events are never dropped.
 */
export const ADVANCE = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
local cursor = tonumber(redis.call('HGET', KEYS[2], 'cursor') or '0')
local id = math.min(tonumber(ARGV[2]), tonumber(redis.call('HGET', KEYS[2], 'next') or '0'))
if id <= cursor then return 0 end
redis.call('HINCRBY', KEYS[2], 'unread', -tonumber(ARGV[3]))
local kept = tonumber(redis.call('HINCRBY', KEYS[2], 'kept', ARGV[3]))
local first = tonumber(redis.call('HGET', KEYS[2], 'first') or '1')
local maxEvents = tonumber(ARGV[4])
local maxChars = tonumber(ARGV[5])
local dropped = first
while true do
  local head = redis.call('LINDEX', KEYS[4], 0)
  if not head then break end
  local f, n, c = string.match(head, '^(%d+):(%d+):(%d+)$')
  f = tonumber(f) n = tonumber(n) c = tonumber(c)
  if f + n - 1 > id then break end
  local after = id - dropped + 1 - n
  if not (after >= maxEvents or (kept > maxChars and after >= 1)) then break end
  redis.call('LPOP', KEYS[4])
  kept = kept - c
  dropped = f + n
end
if dropped > first then redis.call('XTRIM', KEYS[1], 'MINID', dropped .. '-1') end
redis.call('HSET', KEYS[2], 'cursor', id, 'first', dropped, 'kept', kept)
return 1
`;

/** KEYS: conns set. ARGV: prefix. The connections whose owner's heartbeat key is gone. */
export const ORPHANS = `
local orphaned = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local owner = redis.call('HGET', ARGV[1] .. 'conn:' .. id, 'owner')
  if not owner then redis.call('SREM', KEYS[1], id)
  elseif redis.call('EXISTS', ARGV[1] .. 'node:' .. owner) == 0 then table.insert(orphaned, id) end
end
return orphaned
`;

/**
 * KEYS: conn, pending, sessions, adoption memo. ARGV: prefix, new owner. Returns {owner, epoch,
 * init, pending…, '', sessions…} or nil. The result is kept for a minute, so the same call sent
 * again (the client resends a command whose reply was lost) gets it again instead of nil.
 */
export const ADOPT = `
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then return nil end
if owner == ARGV[2] then
  local memo = redis.call('GET', KEYS[4])
  if memo then
    local kept = cjson.decode(memo)
    if kept[2] == redis.call('HGET', KEYS[1], 'epoch') then return kept end
  end
  return nil
end
if redis.call('EXISTS', ARGV[1] .. 'node:' .. owner) == 1 then return nil end
local epoch = redis.call('HINCRBY', KEYS[1], 'epoch', 1)
redis.call('HSET', KEYS[1], 'owner', ARGV[2])
local result = {ARGV[2], tostring(epoch), redis.call('HGET', KEYS[1], 'init')}
for _, value in ipairs(redis.call('HVALS', KEYS[2])) do table.insert(result, value) end
redis.call('DEL', KEYS[2])
table.insert(result, '')
local sessions = redis.call('HGETALL', KEYS[3])
for _, value in ipairs(sessions) do table.insert(result, value) end
redis.call('SET', KEYS[4], cjson.encode(result), 'PX', 60000)
return result
`;

/**
 * KEYS: conn, sessions, pending, streams set, conns set. ARGV: prefix, connectionId, reason, linger
 * ms. Every stream ends (its reader drains it, then it expires), and the records are gone.
 */
export const END_CONNECTION = `
for _, name in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  local base = ARGV[2] .. ':' .. name
  redis.call('HSETNX', ARGV[1] .. 'm:' .. base, 'ended', ARGV[3])
  redis.call('PEXPIRE', ARGV[1] .. 'm:' .. base, ARGV[4])
  redis.call('PEXPIRE', ARGV[1] .. 's:' .. base, ARGV[4])
  redis.call('PEXPIRE', ARGV[1] .. 'z:' .. base, ARGV[4])
  redis.call('PEXPIRE', ARGV[1] .. 'r:' .. base, ARGV[4])
  redis.call('PUBLISH', ARGV[1] .. 'w:' .. base, 'end')
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[2])
return 1
`;
