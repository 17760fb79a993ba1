// `pnpm lint:links` (part of `pnpm lint`): every relative link and #anchor in the repository's
// Markdown must resolve to a file or a heading that exists. remark-validate-links is the remark
// project's own checker; it reads links offline, and a link to this repository on GitHub
// (`https://github.com/acpkit/acpkit/blob/main/…`) is checked as the local file it names.
import remarkValidateLinks from "remark-validate-links";

export default {
  plugins: [[remarkValidateLinks, { repository: "https://github.com/acpkit/acpkit", root: "." }]],
};
