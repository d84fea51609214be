// SPDX-License-Identifier: GPL-2.0
/*
 * browser.js - Debian's chromium, headless, for sampo's browser tests.
 *
 * playwright-core drives /usr/bin/chromium (never a downloaded browser)
 * with a new empty profile per run and every background service that could
 * reach the network turned off, so a test sees only the files it opens.
 * Pages are opened over file://.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM = process.env.SAMPO_CHROMIUM || '/usr/bin/chromium';

async function launch() {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sampo-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
			'--no-first-run', '--disable-background-networking',
			'--disable-component-update', '--disable-sync',
		],
		viewport: { width: 1200, height: 800 },
	});
	const close = async () => {
		await context.close();
		fs.rmSync(profile, { recursive: true, force: true });
	};
	return { context, close };
}

function fileUrl(p) {
	return 'file://' + path.resolve(p);
}

/* a failed check: one line saying what differs, exit 1 */
function fail(msg) {
	console.error('FAIL: ' + msg);
	process.exitCode = 1;
	throw new Error(msg);
}

function check(cond, msg) {
	if (!cond)
		fail(msg);
}

module.exports = { launch, fileUrl, fail, check };
