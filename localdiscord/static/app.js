// The local table's page: one member per tab, the guild's channels and threads as Discord shows
// them, live over a WebSocket (see page.py for what goes both ways). Its own words come from the
// bot's catalogs (words.py), in the member's language; every request carries the browser's secret
// (members.py). A table's address is /t/<channel id>.
"use strict";

(() => {
  const { el } = Markdown;
  const $ = (id) => document.getElementById(id);
  const KNOWN = "pachisi.members"; // [{id, name}] this browser has played as
  const LAST = "pachisi.member"; // the tab's member id (session storage), the browser's last one (local)
  const SECRET = "pachisi.secret"; // this browser's secret: the members it holds are its own
  const LOCALE = "pachisi.locale"; // the language of the browser's last member, for the name dialog
  let words = {};
  const OPENED = linked(); // the table whose link opened this page, if one did

  // A word of the page in the member's language, its {placeholders} filled.
  function t(key, params) {
    let text = words[key] || key;
    for (const [name, value] of Object.entries(params || {})) text = text.split("{" + name + "}").join(value);
    return text;
  }

  // A sentence with {placeholders} as nodes (a name in bold, a command in its own style).
  function tNodes(key, nodes) {
    const parts = (words[key] || key).split(/(\{\w+\})/);
    return parts.filter((p) => p).map((p) => (p.startsWith("{") && nodes[p.slice(1, -1)]) || p);
  }

  function applyWords(data) {
    const changed = document.documentElement.lang !== data.lang;
    words = data.words;
    document.documentElement.lang = data.lang;
    for (const node of document.querySelectorAll("[data-word]")) node.textContent = t(node.dataset.word);
    for (const node of document.querySelectorAll("[data-word-label]")) node.setAttribute("aria-label", t(node.dataset.wordLabel));
    if (!state.current) { // before a channel is shown (then show() names it)
      for (const node of document.querySelectorAll("[data-word-placeholder]")) node.placeholder = t(node.dataset.wordPlaceholder);
    }
    if (state.me) showMe();
    else $("locale").value = pageLocale(data.lang); // the name dialog's language, behind it too
    if (state.current && changed) show(state.current); // the messages' words and times, the header's
    if (state.me) setStatus(state.online);
  }

  // The language menu's entry for the page's words before a member: the one asked for, else the
  // first of that language.
  function pageLocale(code) {
    const values = [...$("locale").options].map((o) => o.value);
    const asked = localStorage.getItem(LOCALE) || navigator.language;
    return values.includes(asked) ? asked : values.find((v) => v.split("-")[0] === code) || values[0];
  }

  function secret() {
    let found = localStorage.getItem(SECRET);
    if (!found) {
      const bytes = crypto.getRandomValues(new Uint8Array(24));
      found = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(SECRET, found);
    }
    return found;
  }

  function linked() {
    const path = location.pathname.match(/^\/t\/(\d+)$/);
    return path ? path[1] : new URLSearchParams(location.hash.slice(1)).get("channel");
  }

  const state = {
    ws: null,
    me: null,
    users: {},
    channels: new Map(), // id -> {id, name, thread, parent_id}
    messages: new Map(), // id -> view
    current: null, // channel id shown
    unread: new Set(),
    commands: [],
    seq: 0,
    selected: -1,
    suggestions: [],
    retry: 0,
    awaitThreadFrom: null, // when this member last sent a command or asked for a rematch (a table may open)
    pinned: true, // the message list follows new messages (scrolled to its bottom)
    autoTop: 0, // where the page itself last scrolled the list
    online: false,
    fresh: new Set(), // threads opened since this page connected (a rematch's, say)
    offered: false, // the seat offer of the table this page was opened for is made
    offerFor: null, // {thread, until}: that offer, waiting for the table's free seat to show
  };

  // --- members -----------------------------------------------------------------------------

  function known() {
    try {
      return JSON.parse(localStorage.getItem(KNOWN) || "[]");
    } catch {
      return [];
    }
  }

  function remember(member) {
    const list = known().filter((m) => m.id !== member.id);
    list.unshift({ id: member.id, name: member.name });
    localStorage.setItem(KNOWN, JSON.stringify(list.slice(0, 20)));
    sessionStorage.setItem(LAST, member.id);
  }

  function showJoinError(error) {
    $("join-error").hidden = !error;
    $("join-error").textContent = error || "";
  }

  $("join-name").addEventListener("input", () => showJoinError(null)); // an error about the old name is stale

  // The name dialog: joining (a name the others see), or, from "Play as someone else", switching.
  function askName(error, switching) {
    $("join-title").textContent = t(switching ? "switch" : "join_title");
    showJoinError(error);
    const list = $("known-members");
    list.replaceChildren();
    for (const member of known()) {
      const button = el("button", null, [t("continue_as", { name: member.name })]);
      button.type = "button";
      button.addEventListener("click", () => {
        $("join").close();
        sessionStorage.setItem(LAST, member.id);
        connect({ member_id: member.id, name: member.name });
      });
      list.append(el("li", null, [button]));
    }
    if (!$("join").open) $("join").showModal();
    $("join-name").focus();
  }

  $("join").addEventListener("cancel", (event) => event.preventDefault()); // a tab needs a member

  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) {
      showJoinError(t("name_needed"));
      $("join-name").focus();
      return;
    }
    showJoinError(null);
    $("join").close();
    sessionStorage.removeItem(LAST);
    connect({ name });
  });

  $("switch").addEventListener("click", () => {
    if (state.ws) state.ws.close(1000, "switching member");
    state.ws = null;
    askName(null, true);
  });

  // --- the socket --------------------------------------------------------------------------

  let hello = null;

  function connect(greeting) {
    hello = greeting;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/live`);
    state.ws = ws;
    const locale = localStorage.getItem(LOCALE) || navigator.language;
    ws.addEventListener("open", () => ws.send(JSON.stringify({ op: "hello", locale, ...hello, secret: secret() })));
    ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    ws.addEventListener("close", () => {
      if (state.ws !== ws) return; // replaced on purpose
      banner(t("reconnecting"));
      setStatus(false);
      const delay = Math.min(5000, 250 * 2 ** state.retry);
      state.retry += 1;
      setTimeout(() => {
        if (state.ws === ws) connect(state.me ? { member_id: state.me.id, name: state.me.name } : hello);
      }, delay);
    });
  }

  function send(data) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN && state.me) {
      state.ws.send(JSON.stringify({ ...data, member: state.me.id, secret: secret() }));
      return true;
    }
    refused(t("not_connected"));
    return false;
  }

  function receive(data) {
    switch (data.op) {
      case "welcome": return welcome(data);
      case "message": return upsert(data.message);
      case "channel": return addChannel(data.channel);
      case "member": return member(data);
      case "commands":
        state.commands = data.commands;
        if ($("welcome")) drawMessages(); // its commands, in the member's language now
        for (const node of document.querySelectorAll("#messages .invoked")) node.replaceWith(usedLine(node.dataset.command, node.dataset.user));
        return undefined;
      case "status": return setStatus(data.bot_online);
      case "suggest": return data.seq === state.seq ? showSuggestions(data.items) : undefined;
      case "refused": return refusedLine(data);
      case "notice": return toast(data.text);
      default: return undefined;
    }
  }

  function welcome(data) {
    state.retry = 0;
    banner(null);
    refused(null); // connected again: what was refused while away is stale
    state.me = data.me;
    state.runsTable = Boolean(data.runs_table);
    remember(data.me);
    localStorage.setItem(LOCALE, data.me.locale);
    applyWords(data);
    state.users = data.users;
    state.channels = new Map(data.channels.map((c) => [c.id, c]));
    state.messages = new Map(data.messages.map((m) => [m.id, m]));
    $("guild-name").textContent = data.guild.name;
    document.title = data.guild.name;
    showMe();
    setStatus(data.bot_online);
    const wanted = linked();
    const first = [...state.channels.values()].find((c) => !c.thread);
    show(state.channels.has(wanted) ? wanted : state.current && state.channels.has(state.current) ? state.current : first && first.id);
    if (!state.offered && wanted === OPENED && state.channels.has(wanted) && state.channels.get(wanted).thread) {
      state.offerFor = { thread: wanted, until: Date.now() + 15000 }; // the card may be on its way
      tryOffer();
    }
    state.offered = true;
  }

  function member(data) {
    const view = data.member;
    state.users[view.id] = view.name;
    if (state.me && view.id === state.me.id) {
      state.me = view;
      localStorage.setItem(LOCALE, view.locale);
      if (data.words) applyWords(data);
      showMe();
    }
  }

  function showMe() {
    $("me-name").textContent = t("you_are", { name: state.me.name });
    $("moderator").checked = state.me.moderator;
    $("moderator").disabled = !state.runsTable; // the runner's right, granted: nobody ticks it for themselves
    $("moderator-who").textContent = t(state.runsTable ? "moderator_yours" : "moderator_theirs");
    $("locale").value = state.me.locale;
  }

  $("moderator").addEventListener("change", () => send({ op: "settings", moderator: $("moderator").checked }));
  $("locale").addEventListener("change", () => send({ op: "settings", locale: $("locale").value }));

  function setStatus(online) {
    if (online !== state.online) refused(null); // "not connected", "still starting": no longer so
    state.online = online;
    const status = $("bot-status");
    status.textContent = online ? t("online") : t("offline");
    status.className = online ? "online" : "offline";
  }

  function banner(text) {
    $("banner").hidden = !text;
    $("banner").textContent = text || "";
  }

  let toastTimer = null;
  function toast(text) {
    $("toast").replaceChildren(text);
    $("toast").hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { $("toast").hidden = true; }, 6000);
  }

  // A refused line goes back into the box, to be corrected.
  function refusedLine(data) {
    if (!state.me) {
      sessionStorage.removeItem(LAST);
      if (state.ws) state.ws.close(1000, "refused");
      state.ws = null;
      askName(data.error); // the name is another browser's, or the tab's member is gone
      return;
    }
    refused(data.error);
    showMe(); // a setting refused (the moderator box) goes back to what it is
    if (data.text && !box.value) box.value = data.text;
  }

  function refused(text) {
    $("refused").hidden = !text;
    $("refused").textContent = text || "";
  }

  // --- channels ----------------------------------------------------------------------------

  function addChannel(channel) {
    const fresh = !state.channels.has(channel.id);
    state.channels.set(channel.id, channel);
    if (channel.deleted) state.channels.delete(channel.id);
    if (fresh && channel.thread) state.fresh.add(channel.id);
    if (channel.deleted && state.current === channel.id) show(channel.parent_id);
    drawChannels();
  }

  function channelLabel(channel) {
    return (channel.thread ? "↳ " : "# ") + channel.name;
  }

  function drawChannels() {
    const list = $("channels");
    list.replaceChildren();
    const all = [...state.channels.values()];
    for (const channel of all.filter((c) => !c.thread)) {
      list.append(channelItem(channel));
      for (const thread of all.filter((c) => c.thread && c.parent_id === channel.id)) {
        list.append(channelItem(thread));
      }
    }
  }

  function channelItem(channel) {
    const button = el("button", "channel" + (channel.thread ? " thread" : ""), [channelLabel(channel)]);
    button.type = "button";
    if (channel.id === state.current) button.setAttribute("aria-current", "page");
    if (state.unread.has(channel.id)) button.classList.add("unread");
    button.addEventListener("click", () => {
      show(channel.id);
      openMenu(false);
      $("box").focus();
    });
    return el("li", null, [button]);
  }

  function show(channelId) {
    if (!channelId || !state.channels.has(channelId)) return;
    state.current = channelId;
    state.unread.delete(channelId);
    if (location.pathname !== "/t/" + channelId) history.replaceState(null, "", "/t/" + channelId);
    const channel = state.channels.get(channelId);
    const parent = channel.parent_id && state.channels.get(channel.parent_id);
    $("channel-name").textContent = parent ? `# ${parent.name} › ${channel.name}` : channelLabel(channel);
    $("box").placeholder = t("box_channel", { channel: (channel.thread ? "" : "#") + channel.name });
    $("copy-link").hidden = !channel.thread;
    drawChannels();
    drawMessages();
    showTableLanguage();
  }

  // A table speaks its starter's language to everyone (its cards and log); what only this member
  // sees is in their own. The header says which, read from the script of the bot's messages there
  // (the bot speaks English and Hindi; members' names are mentions, not letters, in its messages).
  function tableLanguage(threadId) {
    const texts = [...state.messages.values()]
      .filter((m) => m.channel_id === threadId && !m.gone && !m.ephemeral && m.author.bot)
      .map((m) => said(m).replace(/<[@#][!&]?\d+>/g, ""));
    if (!texts.length) return null;
    return texts.some((text) => /[\u0900-\u097F]/.test(text)) ? "hi" : "en";
  }

  function showTableLanguage() {
    const channel = state.channels.get(state.current);
    const code = channel && channel.thread ? tableLanguage(channel.id) : null;
    const badge = $("table-language");
    badge.hidden = !code;
    badge.textContent = code ? t("table_speaks", { language: t("language_" + code) }) : "";
  }

  function openMenu(open) {
    document.body.classList.toggle("menu-open", open);
    $("menu").setAttribute("aria-expanded", String(open));
  }

  $("menu").addEventListener("click", () => openMenu(!document.body.classList.contains("menu-open")));
  // On a phone the panel closes as a drawer does: a tap on the dimmed page (which does nothing
  // else), or Escape.
  const drawer = () => document.body.classList.contains("menu-open") && getComputedStyle($("menu")).display !== "none";
  $("main").addEventListener("click", (event) => {
    if (!drawer()) return;
    event.preventDefault();
    event.stopPropagation();
    openMenu(false);
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !drawer()) return;
    openMenu(false);
    $("menu").focus();
  });

  // --- messages ----------------------------------------------------------------------------

  function byId(a, b) {
    return BigInt(a.id) < BigInt(b.id) ? -1 : 1;
  }

  function atBottom() {
    const list = $("messages");
    return list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  }

  // Keep the newest message in view, unless the member scrolled up to read (then a cue offers to
  // come back down). Only the member's own scrolling unpins: the page's, and a list that grows or
  // shrinks as pictures load and boards are replaced, do not.
  function follow() {
    const list = $("messages");
    if (!state.pinned) return;
    list.scrollTop = list.scrollHeight;
    state.autoTop = list.scrollTop;
    $("new-messages").hidden = true;
  }

  function jumpDown() {
    state.pinned = true;
    follow();
  }

  // When the member last scrolled the list themselves: the wheel, a touch, a scrolling key, or the
  // scroll bar. A click on a button in the list is not scrolling: the board it brings must follow.
  let reading = 0;
  const SCROLL_KEYS = new Set(["PageUp", "PageDown", "ArrowUp", "ArrowDown", "Home", "End"]);
  const scrolls = {
    wheel: () => true,
    touchmove: () => true,
    keydown: (event) => SCROLL_KEYS.has(event.key),
    pointerdown: (event) => event.target === $("messages"),
  };
  for (const [kind, scrolling] of Object.entries(scrolls)) {
    $("messages").addEventListener(kind, (event) => { if (scrolling(event)) reading = Date.now(); }, { passive: true });
  }
  $("messages").addEventListener("scroll", () => {
    const list = $("messages");
    const theirs = Date.now() - reading < 1000;
    state.pinned = atBottom() || (state.pinned && (!theirs || list.scrollTop >= state.autoTop - 2));
    if (state.pinned) $("new-messages").hidden = true;
  });
  $("new-messages").addEventListener("click", () => {
    jumpDown();
    $("box").focus();
  });
  const growing = new ResizeObserver(() => follow());
  growing.observe($("messages"));
  window.addEventListener("hashchange", () => show(new URLSearchParams(location.hash.slice(1)).get("channel")));

  function drawMessages() {
    const list = $("messages");
    list.replaceChildren();
    const shown = [...state.messages.values()].filter((m) => m.channel_id === state.current && !m.gone && !stale(m)).sort(byId);
    for (const message of shown) list.append(messageItem(message));
    const channel = state.channels.get(state.current);
    if (!shown.length && channel && !channel.thread) list.append(welcomeItem(channel));
    jumpDown();
  }

  // An empty channel says what to type: the commands in the member's language, one click away.
  function welcomeItem(channel) {
    const item = el("li", "welcome");
    item.id = "welcome";
    item.append(el("h3", null, [t("welcome", { channel: channel.name })]));
    const nodes = { start: commandButton("pachisi", "start"), help: commandButton("pachisi", "help") };
    item.append(el("p", null, tNodes("welcome_try", nodes)));
    return item;
  }

  // A command as this member's language names it (`/pachisi join` in English until the bot's
  // commands are known: the box reads English in every language).
  function commandText(command, sub) {
    const found = state.commands.find((c) => c.default === command);
    return found ? `/${found.name} ${found.subs[sub] || sub}` : `/${command} ${sub}`;
  }

  function commandButton(command, sub) {
    const text = commandText(command, sub);
    const button = el("button", "command-button", [text]);
    button.type = "button";
    button.addEventListener("click", () => {
      box.value = text + " ";
      box.focus();
      box.dispatchEvent(new Event("input"));
    });
    return button;
  }

  function upsert(message) {
    const old = state.messages.get(message.id);
    state.messages.set(message.id, message);
    if (state.offerFor) tryOffer();
    if (message.channel_id !== state.current) {
      if (!old && !message.gone) {
        state.unread.add(message.channel_id);
        drawChannels();
        if (followsMe(message)) show(message.channel_id);
      }
      return;
    }
    for (const answer of answersTo(message)) if (stale(answer)) document.getElementById("m" + answer.id)?.remove();
    for (const notice of state.messages.values()) {
      if (notice.channel_id === message.channel_id && aboutThrow(notice) && stale(notice)) document.getElementById("m" + notice.id)?.remove();
    }
    if (!message.gone && $("welcome")) $("welcome").remove(); // the channel is empty no more
    if (!old) showTableLanguage();
    const node = document.getElementById("m" + message.id);
    if (message.gone || stale(message)) {
      if (node) node.remove();
    } else if (node) {
      const focused = node.contains(document.activeElement) ? document.activeElement.dataset.customId : null;
      const fresh = messageItem(message);
      node.replaceWith(fresh);
      if (focused) {
        const again = [...fresh.querySelectorAll("button")].find((b) => b.dataset.customId === focused);
        if (again && !again.disabled) again.focus();
        else box.focus(); // the button is gone: back to the box (Shift+Tab reaches the newest buttons)
      }
    } else {
      const list = $("messages");
      const later = [...list.children].find((child) => BigInt(child.dataset.id) > BigInt(message.id));
      list.insertBefore(messageItem(message), later || null);
      if (!state.pinned && !message.ephemeral) $("new-messages").hidden = false;
    }
    follow();
  }

  // A hint belongs to its throw: once the message it was asked from no longer offers that Hint
  // (the throw was played), the hint, whose letters now name other moves, goes. So does an answer
  // about a throw (a refused move, typed or clicked): once none of the throw's buttons its channel
  // offered when it came is offered any more, or a newer one replaces it (old notices would push
  // the board out of a phone's view).
  function stale(message) {
    const asked = message.answers;
    if (asked && asked.custom_id.startsWith("pachisi:hint:")) {
      const from = state.messages.get(asked.message);
      return !from || from.gone || !offers(from.components, asked.custom_id);
    }
    if (!aboutThrow(message)) return false;
    const live = offeredIn(message.channel_id);
    const plays = (message.during || []).filter(playing);
    if (plays.length && !plays.some((id) => live.has(id))) return true;
    return [...state.messages.values()].some((m) => m.channel_id === message.channel_id && !m.gone &&
      BigInt(m.id) > BigInt(message.id) && aboutThrow(m));
  }

  const THROW_COMMANDS = ["pachisi move", "pachisi throw"]; // by their own names, as invoked
  const playing = (id) => /^pachisi:(move|throw):/.test(id || "");

  function aboutThrow(message) {
    if (!message.ephemeral) return false;
    if (message.invoked) return THROW_COMMANDS.includes(message.invoked.command);
    return Boolean(message.answers && playing(message.answers.custom_id));
  }

  function offeredIn(channelId) {
    const ids = new Set();
    const walk = (list) => { for (const c of list || []) {
      if (c.type === 2 && !c.disabled && c.custom_id) ids.add(c.custom_id);
      walk(c.components);
      if (c.accessory) walk([c.accessory]);
    } };
    for (const m of state.messages.values()) if (m.channel_id === channelId && !m.gone && !m.ephemeral) walk(m.components);
    return ids;
  }

  function offers(list, customId) {
    return (list || []).some((c) => (c.type === 2 && !c.disabled && c.custom_id === customId) ||
      offers(c.components, customId) || offers(c.accessory ? [c.accessory] : [], customId));
  }

  function answersTo(message) {
    return [...state.messages.values()].filter((m) => m.answers && m.answers.message === message.id);
  }

  // A table opened since this page connected that calls this member in (a rematch's new thread,
  // or the table the member just started) opens by itself, when the member is at the old one.
  function followsMe(message) {
    const thread = state.channels.get(message.channel_id);
    if (!thread || !state.fresh.has(thread.id) || !state.me) return false;
    if (!JSON.stringify([message.content, message.embeds, message.components]).includes(`<@${state.me.id}>`)) return false;
    state.fresh.delete(thread.id);
    const here = state.channels.get(state.current);
    const asked = state.awaitThreadFrom && Date.now() - state.awaitThreadFrom < 30000;
    return Boolean(asked || (here && (here.id === thread.parent_id || (here.thread && sameTable(here.name, thread.name)))));
  }

  // A rematch's thread is its table's name numbered ("Asha's table 2" after "Asha's table").
  function sameTable(old, name) {
    const unnumbered = (text) => text.replace(/ \d+$/, "");
    return unnumbered(old) === unnumbered(name);
  }

  function context() {
    const channels = {};
    for (const [id, c] of state.channels) channels[id] = c.name;
    return { users: state.users, channels, me: state.me && state.me.id };
  }

  function messageItem(message) {
    const ctx = context();
    const item = el("li", "message" + (message.ephemeral ? " ephemeral" : ""));
    item.id = "m" + message.id;
    item.dataset.id = message.id;
    if (message.invoked) item.append(usedLine(message.invoked.command, message.invoked.user_id));
    new ResizeObserver(() => follow()).observe(item);
    const head = el("div", "head", [
      el("span", "avatar", [message.author.name.slice(0, 1).toUpperCase()]),
      el("span", "author", [message.author.name]),
    ]);
    if (message.author.bot) head.append(el("span", "badge", [t("app")]));
    const time = el("time", "sent", [sentAt(message.timestamp)]);
    time.dateTime = message.timestamp;
    head.append(time);
    if (message.edited) head.append(el("span", "edited", [t("edited")]));
    item.append(head);
    const body = el("div", "body");
    if (message.thinking && !message.content) body.append(el("p", "thinking", [t("thinking", { name: message.author.name })]));
    if (message.content) body.append(Markdown.render(message.content, ctx));
    for (const embed of message.embeds) body.append(embedBox(embed, ctx));
    for (const file of message.attachments) body.append(attachment(file));
    body.append(...components(message, message.components, ctx));
    if (message.thread_id && state.channels.has(message.thread_id)) {
      const thread = state.channels.get(message.thread_id);
      const open = el("button", "open-thread", [t("open_thread", { name: thread.name })]);
      open.type = "button";
      open.addEventListener("click", () => show(thread.id));
      body.append(open);
    }
    if (message.ephemeral) {
      const dismiss = el("button", "link", [t("dismiss")]);
      dismiss.type = "button";
      dismiss.addEventListener("click", () => send({ op: "dismiss", message: message.id }));
      body.append(el("div", "only-you", [t("only_you") + " • ", dismiss]));
    }
    item.append(body);
    return item;
  }

  // When a message was sent, as the member's language writes a time. A formatter costs more to set
  // up than the rest of a message's drawing: one per language, kept.
  const clocks = new Map();
  function sentAt(timestamp) {
    const code = document.documentElement.lang || "";
    if (!clocks.has(code)) clocks.set(code, new Intl.DateTimeFormat(code || [], { hour: "2-digit", minute: "2-digit" }));
    return clocks.get(code).format(new Date(timestamp));
  }

  // "Asha used /pachisi move", the command named as this member's language names it (as Discord
  // shows each viewer): `command` is its own name, as the interaction carried it.
  function usedLine(command, userId) {
    const found = state.commands.map((c) => c.paths && c.paths[command]).find(Boolean);
    const name = el("span", "who", [state.users[userId] || "?"]);
    const line = el("div", "invoked", tNodes("used", { name, command: el("span", "command", ["/" + (found || command)]) }));
    line.dataset.command = command;
    line.dataset.user = userId;
    return line;
  }

  function colour(value) {
    return value ? "#" + Number(value).toString(16).padStart(6, "0") : "#4f545c";
  }

  function embedBox(embed, ctx) {
    const box = el("div", "embed");
    box.style.borderLeftColor = colour(embed.color);
    if (embed.author && embed.author.name) box.append(el("div", "embed-author", [embed.author.name]));
    if (embed.title) {
      const title = el("div", "embed-title", [Markdown.inline(embed.title, ctx)]);
      box.append(title);
    }
    if (embed.description) box.append(Markdown.render(embed.description, ctx));
    if (embed.fields && embed.fields.length) {
      const fields = el("div", "embed-fields");
      for (const field of embed.fields) {
        fields.append(el("div", "embed-field" + (field.inline ? " inline" : ""), [
          el("div", "embed-field-name", [Markdown.inline(field.name || "", ctx)]),
          Markdown.render(field.value || "", ctx),
        ]));
      }
      box.append(fields);
    }
    if (embed.image) box.append(picture(embed.image.url, embed.title || t("picture")));
    if (embed.thumbnail) box.append(picture(embed.thumbnail.url, "thumbnail", "embed-thumbnail"));
    if (embed.footer && embed.footer.text) box.append(el("div", "embed-footer", [embed.footer.text]));
    return box;
  }

  function picture(url, alt, className) {
    const img = el("img", className || "picture");
    img.src = url; // always a page address (views.py drops any other)
    img.alt = alt;
    img.addEventListener("load", follow); // a picture makes the list taller once it is loaded
    return img;
  }

  function attachment(file) {
    if (file.image) { // a tap opens it full size (a phone draws the board's panels small)
      const a = el("a", "picture-link", [picture(file.url, file.filename)]);
      a.href = file.url;
      a.target = "_blank";
      a.rel = "noopener";
      a.title = t("open_picture");
      return a;
    }
    const a = el("a", "file", [t("file", { name: file.filename })]);
    a.href = file.url;
    a.download = file.filename;
    return a;
  }

  const STYLE = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link-button" };

  function components(message, list, ctx) {
    const out = [];
    for (const c of list || []) {
      if (c.type === 1) out.push(el("div", "row", components(message, c.components, ctx)));
      else if (c.type === 2) out.push(button(message, c));
      else if (c.type === 10) out.push(Markdown.render(c.content || "", ctx));
      else if (c.type === 9) out.push(el("div", "section", [...components(message, c.components, ctx), ...components(message, c.accessory ? [c.accessory] : [], ctx)]));
      else if (c.type === 17) out.push(el("div", "container", components(message, c.components, ctx)));
      else if (c.type === 14) out.push(el("hr"));
      else out.push(el("div", "unsupported", [t("unsupported")]));
    }
    return out;
  }

  function button(message, c) {
    const label = [c.emoji && c.emoji.name ? c.emoji.name + " " : "", c.label || ""].join("");
    if (c.style === 5) {
      const href = Markdown.safeUrl(c.url || "");
      const a = el("a", "button link-button", [label + " ↗"]);
      if (href) {
        a.href = href;
        a.target = "_blank";
        a.rel = "noopener noreferrer";
      }
      return a;
    }
    const b = el("button", "button " + (STYLE[c.style] || "secondary"), [label]);
    b.type = "button";
    b.disabled = Boolean(c.disabled);
    b.dataset.customId = c.custom_id;
    b.addEventListener("click", () => {
      if ((c.custom_id || "").startsWith("pachisi:rematch:")) state.awaitThreadFrom = Date.now();
      if (send({ op: "click", message: message.id, custom_id: c.custom_id })) refused(null);
    });
    return b;
  }

  // --- the command box ---------------------------------------------------------------------

  const box = $("box");
  let typingTimer = null;

  box.addEventListener("input", () => {
    refused(null);
    clearTimeout(typingTimer);
    if (!box.value.startsWith("/")) return showSuggestions([]);
    typingTimer = setTimeout(() => {
      state.seq += 1;
      send({ op: "type", text: box.value, channel: state.current, seq: state.seq });
    }, 80);
    return undefined;
  });

  function showSuggestions(items) {
    state.suggestions = items;
    state.selected = -1;
    const list = $("suggestions");
    list.replaceChildren();
    items.forEach((item, index) => {
      const option = el("li", null, [el("span", "label", [item.label]), el("span", "detail", [item.detail])]);
      option.id = "suggestion-" + index;
      option.setAttribute("role", "option");
      option.addEventListener("mousedown", (event) => {
        event.preventDefault();
        take(index);
      });
      list.append(option);
    });
    $("suggest-box").hidden = items.length === 0;
    box.setAttribute("aria-expanded", String(items.length > 0));
    box.removeAttribute("aria-activedescendant");
    list.scrollTop = 0;
    moreBelow();
  }

  // The list scrolls; while some of it is out of sight below, a cue says so.
  function moreBelow() {
    const list = $("suggestions");
    $("suggestions-more").hidden = list.scrollHeight - list.scrollTop - list.clientHeight <= 8; // its padding
  }

  $("suggestions").addEventListener("scroll", moreBelow);

  function select(index) {
    const options = $("suggestions").children;
    state.selected = (index + options.length) % options.length;
    [...options].forEach((o, i) => o.setAttribute("aria-selected", String(i === state.selected)));
    box.setAttribute("aria-activedescendant", "suggestion-" + state.selected);
    options[state.selected].scrollIntoView({ block: "nearest" });
    moreBelow();
  }

  function take(index) {
    const item = state.suggestions[index];
    if (!item) return;
    box.value = item.text;
    box.focus();
    box.dispatchEvent(new Event("input"));
  }

  box.addEventListener("keydown", (event) => {
    const open = state.suggestions.length > 0;
    if (open && event.key === "ArrowDown") {
      event.preventDefault();
      select(state.selected + 1);
    } else if (open && event.key === "ArrowUp") {
      event.preventDefault();
      select(state.selected < 0 ? -1 : state.selected - 1); // from none: the last one
    } else if (open && event.key === "Tab" && !event.shiftKey) {
      event.preventDefault();
      take(state.selected >= 0 ? state.selected : 0);
    } else if (open && event.key === "Enter" && state.selected >= 0) {
      event.preventDefault();
      take(state.selected);
    } else if (event.key === "Escape") {
      showSuggestions([]);
    }
  });

  $("composer").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = box.value.trim();
    if (!text || !state.current) return;
    if (/^\/\S+\s+\S+/.test(text)) state.awaitThreadFrom = Date.now(); // it may open a table
    if (send({ op: "send", text, channel: state.current })) {
      clearTimeout(typingTimer);
      state.seq += 1; // suggestions still on their way for the line are for a line gone
      box.value = "";
      showSuggestions([]);
      refused(null);
    }
  });

  setInterval(() => Markdown.refresh($("messages")), 10000);

  // --- start -------------------------------------------------------------------------------

  // The seat offer of a table's link: the newest enabled Take a seat button of the thread's table
  // (on its card in the channel, or in the thread), one click away.
  function tryOffer() {
    const pending = state.offerFor;
    if (Date.now() > pending.until || offerSeat(pending.thread)) state.offerFor = null;
  }

  function offerSeat(threadId) {
    const thread = state.channels.get(threadId);
    const about = [...state.messages.values()].filter((m) => !m.gone && (m.channel_id === threadId ||
      (m.channel_id === thread.parent_id && JSON.stringify([m.content, m.embeds, m.components]).includes(`<#${threadId}>`))));
    const seats = about.sort(byId).reverse().flatMap((m) => seatButtons(m.components).map((b) => [m, b]));
    if (!seats.length) return false;
    const [message] = seats[0];
    if (mentionsMe(message)) return true; // the table's card names its players: this member has a seat
    $("offer-text").textContent = t("seat_offer", { table: thread.name });
    $("offer-take").onclick = () => { // as if typed in the thread: the bot answers there, where they look
      $("offer").close();
      send({ op: "send", text: commandText("pachisi", "join"), channel: threadId });
    };
    $("offer").showModal();
    $("offer-take").focus();
    return true;
  }

  function mentionsMe(message) {
    return Boolean(state.me) && JSON.stringify([message.content, message.embeds]).includes(`<@${state.me.id}>`);
  }

  function said(message) {
    return message.content || (message.embeds && message.embeds[0] && message.embeds[0].description) || "";
  }

  function seatButtons(list) {
    const found = [];
    for (const c of list || []) {
      if (c.type === 2 && !c.disabled && (c.custom_id || "").startsWith("pachisi:join:")) found.push(c);
      found.push(...seatButtons(c.components), ...seatButtons(c.accessory ? [c.accessory] : []));
    }
    return found;
  }

  $("offer-watch").addEventListener("click", () => $("offer").close());

  $("copy-link").addEventListener("click", () => {
    const link = location.origin + "/t/" + state.current;
    const done = () => toast(t("link_copied", { link }));
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).then(done, done);
    else done();
  });

  // A tab keeps its member across reloads; a new tab picks one (this browser's earlier ones are offered).
  function start() {
    const id = sessionStorage.getItem(LAST);
    const name = (known().find((m) => m.id === id) || {}).name;
    if (id) connect({ member_id: id, name });
    else askName();
  }

  const asked = localStorage.getItem(LOCALE) || navigator.language || "en-US";
  fetch("/words?locale=" + encodeURIComponent(asked))
    .then((r) => r.json())
    .then(applyWords)
    .catch(() => undefined)
    .finally(start);
})();
