import { esc, layout } from "./layout.ts";

export const FORUM_TITLE = "Sourdough starter smells like nail polish remover — is it dead?";

/** The thread's posts in order; each author appears once, each body must survive extraction. */
export const FORUM_POSTS: readonly { author: string; date: string; text: string }[] = [
  {
    author: "breadhead_92",
    date: "2024-05-01T08:12:00Z",
    text: "My starter is two weeks old and suddenly smells like acetone. I feed it once a day with rye flour. Should I throw it away?",
  },
  {
    author: "MillerMargaret",
    date: "2024-05-01T09:40:00Z",
    text: "Don't throw it away! An acetone smell means it is hungry. Feed it twice a day for a few days.",
  },
  {
    author: "crumbshot",
    date: "2024-05-01T10:05:00Z",
    text: "Agree with Margaret. Also try a 1:5:5 ratio so the yeast has plenty to eat between feedings.",
  },
  {
    author: "levain_larry",
    date: "2024-05-01T13:22:00Z",
    text: "Where do you keep it? Mine went funny when the kitchen was above 28 degrees in summer.",
  },
  {
    author: "breadhead_92",
    date: "2024-05-01T15:47:00Z",
    text: "It sits next to the oven, so probably quite warm. I'll move it to the pantry.",
  },
  {
    author: "HydrationStation",
    date: "2024-05-02T07:03:00Z",
    text: "Switching from rye to half rye and half bread flour calmed mine down within a week.",
  },
  {
    author: "the_proofing_drawer",
    date: "2024-05-02T11:30:00Z",
    text: "Pink or orange streaks would be a reason to start over. A sharp smell on its own is fine.",
  },
  {
    author: "oven_spring_sam",
    date: "2024-05-02T18:15:00Z",
    text: "Discard is great for crackers, by the way, so the extra feedings are not wasted.",
  },
  {
    author: "breadhead_92",
    date: "2024-05-04T09:00:00Z",
    text: "Update: three days of twice-daily feeding in the pantry and it doubles in six hours. Thanks all!",
  },
];

/** A forum thread with nine posts by several users, avatars, signatures and reply buttons. */
export function forumPage(): string {
  const posts = FORUM_POSTS.map(
    (post, i) => `<article class="post" id="post-${i + 1}">
      <div class="post-author"><img class="avatar" src="/avatars/${post.author}.png" alt="" width="48" height="48">
        <a class="username" href="/users/${post.author}">${post.author}</a><span class="badge">Member</span></div>
      <div class="post-meta"><a href="#post-${i + 1}">#${i + 1}</a> <time datetime="${post.date}">${post.date.slice(0, 10)}</time></div>
      <div class="post-body"><p>${esc(post.text)}</p></div>
      <div class="post-actions"><button>Like</button> <button>Quote</button> <button>Report</button></div>
    </article>`,
  ).join("\n");
  const body = `<main class="forum">
  <nav class="breadcrumbs"><a href="/forum">Forums</a> › <a href="/forum/baking">Baking</a> › Thread</nav>
  <h1>${esc(FORUM_TITLE)}</h1>
  <p class="thread-stats">${FORUM_POSTS.length} replies · 1,204 views</p>
  <section class="thread">
${posts}
  </section>
  <div class="pagination"><span>Page 1 of 1</span></div>
  <form class="reply"><textarea placeholder="Write a reply…"></textarea><button>Post reply</button></form>
</main>`;
  return layout({ title: `${FORUM_TITLE} | Baking forum`, body });
}
