// The Lua scripts that make each FleetBackend operation one atomic step in Redis (a script runs with
// nothing else interleaved). Keys are passed in KEYS where the script knows them up front; the few it
// derives from stored values (a node's heartbeat and inbox, named by the connection's owner) are
// built from the prefix in ARGV, which is why the backend needs one Redis server, not a Cluster.
//
// Stream entries have the ids "N-1" for event N (1, 2, …), so an event id is a Redis stream id
// without a lookup table; a stream's meta hash keeps: next (last id appended), cursor (last id
// handed to a reader), first (oldest id kept), unread and kept (bytes after and up to the cursor),
// aepoch/aseq (the last append applied), ended (the reason, once ended).

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
 * KEYS: conn, stream, meta, pending, streams set. ARGV: owner, epoch, seq, stream name (for the
 * streams set), wake channel, count of texts, texts…, answered keys…. Returns {fenced, unread}.
 */
export const APPEND = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[2] then return {1, 0} end
local epoch = tonumber(ARGV[2])
local seq = tonumber(ARGV[3])
local applied = tonumber(redis.call('HGET', KEYS[3], 'aepoch') or '-1')
local appliedSeq = tonumber(redis.call('HGET', KEYS[3], 'aseq') or '-1')
if not (applied == epoch and seq <= appliedSeq) then
  local count = tonumber(ARGV[6])
  local nextId = tonumber(redis.call('HGET', KEYS[3], 'next') or '0')
  local bytes = 0
  for i = 1, count do
    nextId = nextId + 1
    redis.call('XADD', KEYS[2], nextId .. '-1', 't', ARGV[6 + i])
    bytes = bytes + string.len(ARGV[6 + i])
  end
  for i = 7 + count, #ARGV do redis.call('HDEL', KEYS[4], ARGV[i]) end
  redis.call('HSET', KEYS[3], 'next', nextId, 'aepoch', epoch, 'aseq', seq)
  redis.call('HINCRBY', KEYS[3], 'unread', bytes)
  redis.call('SADD', KEYS[5], ARGV[4])
  redis.call('PUBLISH', ARGV[5], nextId)
end
return {0, tonumber(redis.call('HGET', KEYS[3], 'unread') or '0')}
`;

/** KEYS: conn, meta, reader, streams set. ARGV: holder, lease ms, last event id ('' for none), stream name. */
export const OPEN_READER = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
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
 * KEYS: stream, meta, reader. ARGV: holder, id, max events kept, max bytes kept. Moves the cursor
 * to id, then trims what is kept behind it to the retention window (unread events are never trimmed).
 */
export const ADVANCE = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
local cursor = tonumber(redis.call('HGET', KEYS[2], 'cursor') or '0')
local id = math.min(tonumber(ARGV[2]), tonumber(redis.call('HGET', KEYS[2], 'next') or '0'))
if id <= cursor then return 0 end
local first = tonumber(redis.call('HGET', KEYS[2], 'first') or '1')
local kept = redis.call('XRANGE', KEYS[1], first .. '-1', id .. '-1')
local handed = 0
local bytes = 0
for _, entry in ipairs(kept) do
  local size = string.len(entry[2][2])
  bytes = bytes + size
  if tonumber(string.match(entry[1], '^(%d+)')) > cursor then handed = handed + size end
end
local maxEvents = tonumber(ARGV[3])
local maxBytes = tonumber(ARGV[4])
local count = #kept
local index = 1
while index <= #kept and (count > maxEvents or (bytes > maxBytes and count > 1)) do
  bytes = bytes - string.len(kept[index][2][2])
  count = count - 1
  index = index + 1
end
local newFirst = first
if index <= #kept then newFirst = tonumber(string.match(kept[index][1], '^(%d+)')) else newFirst = id + 1 end
if newFirst > first then redis.call('XTRIM', KEYS[1], 'MINID', newFirst .. '-1') end
redis.call('HINCRBY', KEYS[2], 'unread', -handed)
redis.call('HSET', KEYS[2], 'cursor', id, 'first', newFirst)
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
  redis.call('PEXPIRE', ARGV[1] .. 'r:' .. base, ARGV[4])
  redis.call('PUBLISH', ARGV[1] .. 'w:' .. base, 'end')
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[2])
return 1
`;
