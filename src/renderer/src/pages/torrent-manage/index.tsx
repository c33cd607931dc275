/** 官种设置: the official-torrent rules (each save a new version) and the torrent list with manual seed types. */
import { useState } from 'react'
import { Tabs } from 'antd'
import { useRememberedState } from '@renderer/hooks/useRememberedState'
import RulesForm from './RulesForm'
import TorrentList from './TorrentList'

export default function TorrentManagePage() {
  // Another screen and back shows the tab it was left on (as the lists keep their page and search).
  const [tab, setTab] = useRememberedState('torrentManage.tab', () => 'rules')
  // Bumped by a rules save: the list starts afresh with the new labels (what was typed in the form stays).
  const [listEpoch, setListEpoch] = useState(0)
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      items={[
        { key: 'rules', label: '官种规则', children: <RulesForm onSaved={() => setListEpoch((epoch) => epoch + 1)} /> },
        { key: 'torrents', label: '种子列表', children: <TorrentList key={listEpoch} /> },
      ]}
    />
  )
}
