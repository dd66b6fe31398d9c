// The local table's page: one member per tab, the guild's channels and threads as Discord shows
// them, live over a WebSocket (see page.py for what goes both ways).
"use strict";

(() => {
  const { el } = Markdown;
  const $ = (id) => document.getElementById(id);
  const KNOWN = "pachisi.members"; // [{id, name}] this browser has played as
  const LAST = "pachisi.member"; // the tab's member id (session storage), the browser's last one (local)

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
    awaitThreadFrom: null, // a channel where this member just started a table
    pinned: true, // the message list follows new messages (scrolled to its bottom)
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

  function askName() {
    const list = $("known-members");
    list.replaceChildren();
    for (const member of known()) {
      const button = el("button", null, ["Continue as " + member.name]);
      button.type = "button";
      button.addEventListener("click", () => {
        $("join").close();
        sessionStorage.setItem(LAST, member.id);
        connect({ member_id: member.id, name: member.name });
      });
      list.append(el("li", null, [button]));
    }
    $("join").showModal();
    $("join-name").focus();
  }

  $("join").addEventListener("cancel", (event) => event.preventDefault()); // a tab needs a member

  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) return;
    $("join").close();
    sessionStorage.removeItem(LAST);
    connect({ name });
  });

  $("switch").addEventListener("click", () => {
    if (state.ws) state.ws.close(1000, "switching member");
    state.ws = null;
    askName();
  });

  // --- the socket --------------------------------------------------------------------------

  let hello = null;

  function connect(greeting) {
    hello = greeting;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/live`);
    state.ws = ws;
    ws.addEventListener("open", () => ws.send(JSON.stringify({ op: "hello", ...hello })));
    ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    ws.addEventListener("close", () => {
      if (state.ws !== ws) return; // replaced on purpose
      banner("Reconnecting to the table…");
      setStatus(false);
      const delay = Math.min(5000, 250 * 2 ** state.retry);
      state.retry += 1;
      setTimeout(() => {
        if (state.ws === ws) connect(state.me ? { member_id: state.me.id, name: state.me.name } : hello);
      }, delay);
    });
  }

  function send(data) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN) {
      state.ws.send(JSON.stringify(data));
      return true;
    }
    refused("Not connected to the table right now; it reconnects by itself.");
    return false;
  }

  function receive(data) {
    switch (data.op) {
      case "welcome": return welcome(data);
      case "message": return upsert(data.message);
      case "channel": return addChannel(data.channel);
      case "member": return member(data.member);
      case "commands": state.commands = data.commands; return undefined;
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
    state.me = data.me;
    remember(data.me);
    state.users = data.users;
    state.channels = new Map(data.channels.map((c) => [c.id, c]));
    state.messages = new Map(data.messages.map((m) => [m.id, m]));
    $("guild-name").textContent = data.guild.name;
    document.title = data.guild.name;
    showMe();
    setStatus(data.bot_online);
    const wanted = new URLSearchParams(location.hash.slice(1)).get("channel");
    const first = [...state.channels.values()].find((c) => !c.thread);
    show(state.channels.has(wanted) ? wanted : state.current && state.channels.has(state.current) ? state.current : first && first.id);
  }

  function member(view) {
    state.users[view.id] = view.name;
    if (state.me && view.id === state.me.id) {
      state.me = view;
      showMe();
    }
  }

  function showMe() {
    $("me-name").textContent = "You are " + state.me.name;
    $("moderator").checked = state.me.moderator;
    $("locale").value = state.me.locale;
  }

  $("moderator").addEventListener("change", () => send({ op: "settings", moderator: $("moderator").checked }));
  $("locale").addEventListener("change", () => send({ op: "settings", locale: $("locale").value }));

  function setStatus(online) {
    const status = $("bot-status");
    status.textContent = online ? "Pachisi: online" : "Pachisi: offline";
    status.className = online ? "online" : "offline";
  }

  function banner(text) {
    $("banner").hidden = !text;
    $("banner").textContent = text || "";
  }

  let toastTimer = null;
  function toast(text) {
    $("toast").textContent = text;
    $("toast").hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { $("toast").hidden = true; }, 6000);
  }

  // A refused line goes back into the box, to be corrected.
  function refusedLine(data) {
    if (!state.me) {
      sessionStorage.removeItem(LAST);
      askName(); // the tab's member is gone and it had no name to join with
      return;
    }
    refused(data.error);
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
    if (fresh && channel.thread && state.awaitThreadFrom === channel.parent_id) {
      state.awaitThreadFrom = null;
      show(channel.id);
      return;
    }
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
      document.body.classList.remove("menu-open");
      $("menu").setAttribute("aria-expanded", "false");
      $("box").focus();
    });
    return el("li", null, [button]);
  }

  function show(channelId) {
    if (!channelId || !state.channels.has(channelId)) return;
    state.current = channelId;
    state.unread.delete(channelId);
    history.replaceState(null, "", "#channel=" + channelId);
    const channel = state.channels.get(channelId);
    const parent = channel.parent_id && state.channels.get(channel.parent_id);
    $("channel-name").textContent = parent ? `# ${parent.name} › ${channel.name}` : channelLabel(channel);
    $("box").placeholder = `Message ${channel.thread ? "" : "#"}${channel.name}, or / for commands`;
    drawChannels();
    drawMessages();
  }

  $("menu").addEventListener("click", () => {
    const open = document.body.classList.toggle("menu-open");
    $("menu").setAttribute("aria-expanded", String(open));
  });

  // --- messages ----------------------------------------------------------------------------

  function byId(a, b) {
    return BigInt(a.id) < BigInt(b.id) ? -1 : 1;
  }

  function atBottom() {
    const list = $("messages");
    return list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  }

  function follow() {
    if (state.pinned) $("messages").scrollTop = $("messages").scrollHeight;
  }

  $("messages").addEventListener("scroll", () => { state.pinned = atBottom(); });
  window.addEventListener("hashchange", () => show(new URLSearchParams(location.hash.slice(1)).get("channel")));

  function drawMessages() {
    const list = $("messages");
    list.replaceChildren();
    const shown = [...state.messages.values()].filter((m) => m.channel_id === state.current && !m.gone).sort(byId);
    for (const message of shown) list.append(messageItem(message));
    state.pinned = true;
    follow();
  }

  function upsert(message) {
    const old = state.messages.get(message.id);
    state.messages.set(message.id, message);
    if (message.channel_id !== state.current) {
      if (!old && !message.gone) {
        state.unread.add(message.channel_id);
        drawChannels();
      }
      return;
    }
    const node = document.getElementById("m" + message.id);
    if (message.gone) {
      if (node) node.remove();
    } else if (node) {
      const focused = node.contains(document.activeElement) ? document.activeElement.dataset.customId : null;
      const fresh = messageItem(message);
      node.replaceWith(fresh);
      if (focused) {
        const again = [...fresh.querySelectorAll("button")].find((b) => b.dataset.customId === focused);
        if (again && !again.disabled) again.focus();
      }
    } else {
      const list = $("messages");
      const later = [...list.children].find((child) => BigInt(child.dataset.id) > BigInt(message.id));
      list.insertBefore(messageItem(message), later || null);
    }
    follow();
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
    if (message.invoked) {
      const who = state.users[message.invoked.user_id] || "someone";
      item.append(el("div", "invoked", [el("span", "who", [who]), " used ", el("span", "command", ["/" + message.invoked.command])]));
    }
    const head = el("div", "head", [
      el("span", "avatar", [message.author.name.slice(0, 1).toUpperCase()]),
      el("span", "author", [message.author.name]),
    ]);
    if (message.author.bot) head.append(el("span", "badge", ["APP"]));
    const time = el("time", "sent", [new Date(message.timestamp).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })]);
    time.dateTime = message.timestamp;
    head.append(time);
    if (message.edited) head.append(el("span", "edited", ["(edited)"]));
    item.append(head);
    const body = el("div", "body");
    if (message.thinking && !message.content) body.append(el("p", "thinking", [message.author.name + " is thinking…"]));
    if (message.content) body.append(Markdown.render(message.content, ctx));
    for (const embed of message.embeds) body.append(embedBox(embed, ctx));
    for (const file of message.attachments) body.append(attachment(file));
    body.append(...components(message, message.components, ctx));
    if (message.thread_id && state.channels.has(message.thread_id)) {
      const thread = state.channels.get(message.thread_id);
      const open = el("button", "open-thread", ["Thread: " + thread.name + " — open it"]);
      open.type = "button";
      open.addEventListener("click", () => show(thread.id));
      body.append(open);
    }
    if (message.ephemeral) {
      const dismiss = el("button", "link", ["Dismiss message"]);
      dismiss.type = "button";
      dismiss.addEventListener("click", () => send({ op: "dismiss", message: message.id }));
      body.append(el("div", "only-you", ["Only you can see this • ", dismiss]));
    }
    item.append(body);
    return item;
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
    if (embed.image) box.append(picture(embed.image.url, embed.title || "picture"));
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
    if (file.image) return picture(file.url, file.filename);
    const a = el("a", "file", ["File: " + file.filename]);
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
      else out.push(el("div", "unsupported", ["(a component this page cannot show)"]));
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
    list.hidden = items.length === 0;
    box.setAttribute("aria-expanded", String(items.length > 0));
  }

  function select(index) {
    const options = $("suggestions").children;
    state.selected = (index + options.length) % options.length;
    [...options].forEach((o, i) => o.setAttribute("aria-selected", String(i === state.selected)));
    box.setAttribute("aria-activedescendant", "suggestion-" + state.selected);
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
      select(state.selected - 1);
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
    if (/^\/\S+\s+start\b/.test(text)) state.awaitThreadFrom = state.current;
    if (send({ op: "send", text, channel: state.current })) {
      box.value = "";
      showSuggestions([]);
      refused(null);
    }
  });

  setInterval(() => Markdown.refresh($("messages")), 10000);

  // --- start -------------------------------------------------------------------------------

  // A tab keeps its member across reloads; a new tab picks one (this browser's earlier ones are offered).
  const id = sessionStorage.getItem(LAST);
  const name = (known().find((m) => m.id === id) || {}).name;
  if (id) connect({ member_id: id, name });
  else askName();
})();
